import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs with request ids. Authorization headers, cookies and anything named like a
 * secret are redacted at the logger, so a careless `log.info({ req })` cannot leak a raw key.
 */
export function createLogger(level: string, name = 'gatehouse'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        '*.password',
        '*.api_key',
        '*.access_token',
        '*.refresh_token',
        '*.client_secret',
        'password',
        'api_key',
        'access_token',
      ],
      censor: '[redacted]',
    },
  });
}
