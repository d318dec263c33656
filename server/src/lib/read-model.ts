import { QueryBuilder } from 'drizzle-orm/pg-core';

/**
 * Builds the read models modules publish (`modules/<domain>/read-models.ts`): a subquery over the
 * owner's table that other modules join instead of the table. PostgreSQL pulls a plain subquery up
 * into the outer query, so a join through one plans and runs as a join on the table would; what the
 * owner gains is that others see only the columns it publishes and cannot write through them.
 * The casing matches the database's (`db/client.ts`), or the subquery would name camelCase columns.
 * Each read model takes its alias as a type parameter (`<TAlias extends string = 'team_rows'>`): drizzle
 * keys a query's join nullability by alias, so with a plain `string` alias an inner and a left join of
 * two read models would share one key and type their columns `never`.
 */
export const readModel = new QueryBuilder({ casing: 'snake_case' });
