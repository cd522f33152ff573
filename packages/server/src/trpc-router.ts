import {
  type ErrorCode,
  type ErrorResponse,
  toIssues,
  WebSearchRequestSchema,
  WebSearchResponseSchema,
} from '@openmates/contract';
import { describeIssues, type Engine, EngineError, errorResponse } from '@openmates/core';
import { initTRPC, TRPCError } from '@trpc/server';
import { z } from 'zod';

/** Per-request context: the engine, the request id, and a transport error found before tRPC ran. */
export interface TrpcContext {
  engine: Engine;
  requestId: string;
  signal: AbortSignal;
  /** Set when the body, key or rate limit was refused before the procedure could run. */
  refused?: EngineError;
}

/** The contract's codes as tRPC codes, so tRPC answers with the contract's HTTP statuses. */
export const TRPC_CODES: Record<ErrorCode, TRPCError['code']> = {
  invalid_request: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  rate_limited: 'TOO_MANY_REQUESTS',
  provider_error: 'BAD_GATEWAY',
  provider_timeout: 'BAD_GATEWAY',
  provider_rate_limited: 'BAD_GATEWAY',
  provider_auth: 'BAD_GATEWAY',
  provider_unavailable: 'BAD_GATEWAY',
  not_configured: 'SERVICE_UNAVAILABLE',
  internal_error: 'INTERNAL_SERVER_ERROR',
};

/** The contract error a tRPC error stands for; never exposes an unexpected error's message. */
export function contractError(error: TRPCError): ErrorResponse {
  const cause = error.cause;
  if (cause instanceof EngineError)
    return errorResponse(cause.code, { message: cause.message, ...(cause.issues ? { issues: cause.issues } : {}) });
  if (cause instanceof z.ZodError) {
    const issues = toIssues(cause);
    return errorResponse('invalid_request', { message: describeIssues(issues), issues });
  }
  if (error.code === 'PARSE_ERROR')
    return errorResponse('invalid_request', { issues: [{ path: '', message: 'the body is not valid JSON' }] });
  if (error.code === 'NOT_FOUND') return errorResponse('not_found');
  if (error.code === 'METHOD_NOT_SUPPORTED') return errorResponse('method_not_allowed');
  return errorResponse('internal_error');
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, ctx }) {
    const body = contractError(error);
    if (ctx?.requestId) body.request_id = ctx.requestId;
    return { message: body.error, code: shape.code, data: { ...body, httpStatus: shape.data.httpStatus } };
  },
});

/**
 * The tRPC router: `webSearch.search`, a mutation taking the contract's WebSearchRequest and
 * answering its WebSearchResponse. It calls the same engine function as REST.
 */
export const appRouter = t.router({
  webSearch: t.router({
    search: t.procedure
      .input(WebSearchRequestSchema)
      .output(WebSearchResponseSchema)
      .mutation(async ({ input, ctx }) => {
        try {
          return await ctx.engine.search(input, { requestId: ctx.requestId, signal: ctx.signal });
        } catch (error) {
          if (error instanceof EngineError)
            throw new TRPCError({ code: TRPC_CODES[error.code], message: error.message, cause: error });
          throw error;
        }
      }),
  }),
});

/** The router's type, for typed tRPC clients (the web GUI imports this, never the server's internals). */
export type AppRouter = typeof appRouter;

export const createTrpcCaller = t.createCallerFactory(appRouter);

/** Raised from createContext so that a refused request gets tRPC's envelope with the contract error. */
export function refusal(error: EngineError): TRPCError {
  return new TRPCError({ code: TRPC_CODES[error.code], message: error.message, cause: error });
}
