import { timestamp } from 'drizzle-orm/pg-core';

// Every instant is stored with a time zone and read back as a Date; the API turns it into Unix ms.
export const timestamptz = () => timestamp({ withTimezone: true, mode: 'date' });
