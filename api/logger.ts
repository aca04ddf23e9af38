import pino from 'pino';

export type Logger = pino.Logger;

/**
 * LOG_FORMAT: `json` (default: one JSON object a line, for log collectors) or `pretty` (what `npm start`
 * sets for the terminal it owns: `12:04:05 INFO  api  message key=value`, requests only at debug).
 */
export type LogFormat = 'json' | 'pretty';

export function logFormat(env: NodeJS.ProcessEnv = process.env): LogFormat {
  return env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'err']);

function scalar(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** One readable line from pino's JSON line. */
export function prettyLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof o.time === 'number' ? o.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVELS[o.level as number] ?? String(o.level)).padEnd(5);
  const err = o.err as { message?: string; stack?: string } | undefined;
  const fields = Object.entries(o)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${scalar(v)}`);
  const tail = err ? `\n    ${err.stack ?? err.message ?? ''}` : '';
  return `${time} ${level} ${o.name ?? ''} ${o.msg ?? ''}${fields.length ? ` ${fields.join(' ')}` : ''}${tail}`;
}

export function createLogger(level = process.env.LOG_LEVEL ?? 'info', name = 'balcao', format: LogFormat = logFormat()): Logger {
  const options: pino.LoggerOptions = { name, level, redact: ['req.headers.authorization', 'password', 'token'] };
  if (format === 'json') return pino(options);
  return pino(options, {
    write(line: string) {
      process.stdout.write(`${prettyLine(line.trimEnd())}\n`);
    },
  });
}

/** Request lines: useful in production logs, noise in the terminal of `npm start` (there at debug only). */
export function requestLogLevel(format: LogFormat = logFormat()): 'info' | 'debug' {
  return format === 'pretty' ? 'debug' : 'info';
}
