import type { Db } from '../../db/client';
import type { components } from '../../contract/api.generated';
import { badRequest } from '../../lib/http-error';
import { LOG_LEVELS } from './logs';
import { listLogs, type LogRow } from './logs.repository';

export type LogMessageModel = components['schemas']['LogMessageModel'];

const LEVELS_BY_LOWER_CASE = new Map<string, string>(LOG_LEVELS.map((level) => [level.toLowerCase(), level]));

export function toLogMessage(row: LogRow): LogMessageModel {
  return {
    time: row.at.getTime(),
    name: row.userName,
    level: row.level,
    ip: row.ip,
    msg: row.message,
    status: row.status,
  };
}

/** `level` is `All` or a Serilog level name (Information, Warning, Error…), case-insensitively. */
export async function getLogs(db: Db, query: { level?: string; count: number; skip: number }) {
  const requested = (query.level ?? 'All').trim();
  let level: string | undefined;
  if (requested.toLowerCase() !== 'all') {
    level = LEVELS_BY_LOWER_CASE.get(requested.toLowerCase());
    if (!level)
      throw badRequest('admin.logs.unknownLevel', { level: requested, allowed: ['All', ...LOG_LEVELS].join(', ') });
  }
  const rows = await listLogs(db, { level, count: query.count, skip: query.skip });
  return rows.map(toLogMessage);
}
