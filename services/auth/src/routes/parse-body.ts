import type { Request } from 'express';
import type { z } from 'zod';
import { describeZodError } from '../../../../shared/mcp/tool-server.ts';
import { AccountError } from '../domain/account-errors.ts';

/** zod at the edge: a failure names the offending field and nothing is touched. */
export function parseBody<T>(schema: z.ZodType<T>, req: Request): T {
  if (req.body === undefined || !req.is('application/json')) {
    throw new AccountError('invalid_request', 'The request body must be JSON (Content-Type: application/json)');
  }
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) throw new AccountError('invalid_request', describeZodError(parsed.error));
  return parsed.data;
}
