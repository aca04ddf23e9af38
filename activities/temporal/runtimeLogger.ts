import type { Logger as TemporalLogger, LogLevel, LogMetadata } from '@temporalio/worker';
import type { Logger } from '../../api/logger';

/** The SDK's logs (worker, workflow `log`, activity `log`) through the process's pino logger. */
export function temporalLogger(logger: Logger): TemporalLogger {
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) => {
    logger[level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error'](meta ?? {}, message);
  };
  return { log: (level, message, meta) => at(level)(message, meta), trace: at('TRACE'), debug: at('DEBUG'), info: at('INFO'), warn: at('WARN'), error: at('ERROR') };
}
