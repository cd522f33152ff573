import {
  ERROR_CODES,
  type ErrorCode,
  type ErrorResponse,
  httpStatus,
  issueMessage,
  toIssues,
  WebSearchRequestSchema,
  WebSearchResponseSchema,
} from '@openmates/contract';
import { type CallMeter, describeIssues, type Engine, EngineError, errorResponse } from '@openmates/core';
import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { z } from 'zod';

/** Per-request context: the engine, the request id and the caller's abort signal. */
export interface TrpcContext {
  engine: Engine;
  /** Debits each provider call to the caller's key (ADR 0136). */
  meter?: CallMeter;
  requestId: string;
  signal: AbortSignal;
}

type TrpcCode = TRPCError['code'];

/**
 * The contract's codes as tRPC codes, so tRPC answers with the contract's HTTP statuses: for each
 * code, the tRPC code of the same HTTP status in tRPC's own table. A 400 is `BAD_REQUEST`:
 * `PARSE_ERROR` is tRPC's word for a body it could not parse, which the request path refuses first.
 */
export const TRPC_CODES: Record<ErrorCode, TrpcCode> = (() => {
  const byStatus = new Map<number, TrpcCode>();
  for (const code of Object.keys(TRPC_ERROR_CODES_BY_KEY) as TrpcCode[]) {
    const status = getHTTPStatusCodeFromError(new TRPCError({ code }));
    if (code !== 'PARSE_ERROR' && !byStatus.has(status)) byStatus.set(status, code);
  }
  return Object.fromEntries(
    ERROR_CODES.map((code) => {
      const trpc = byStatus.get(httpStatus(code));
      if (!trpc) throw new Error(`tRPC has no code for HTTP ${httpStatus(code)} (${code}).`);
      return [code, trpc];
    }),
  ) as Record<ErrorCode, TrpcCode>;
})();

/** The contract code of each tRPC code (the first contract code that maps to it). */
const CONTRACT_CODES = new Map<TRPCError['code'], ErrorCode>();
for (const [code, trpcCode] of Object.entries(TRPC_CODES) as [ErrorCode, TRPCError['code']][])
  if (!CONTRACT_CODES.has(trpcCode)) CONTRACT_CODES.set(trpcCode, code);

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
    return errorResponse('invalid_request', { issues: [{ path: '', message: issueMessage('bodyNotJson') }] });
  // tRPC's own messages (paths, procedure types) stay out: the table's message is enough.
  return errorResponse(CONTRACT_CODES.get(error.code) ?? 'internal_error');
}

/** The `error` member of tRPC's envelope around a contract error (also for refusals made before tRPC runs). */
export function trpcErrorShape(body: ErrorResponse, httpStatus: number) {
  return {
    message: body.error,
    code: TRPC_ERROR_CODES_BY_KEY[TRPC_CODES[body.code]],
    data: { ...body, httpStatus },
  };
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, ctx }) {
    const body = contractError(error);
    if (ctx?.requestId) body.request_id = ctx.requestId;
    return trpcErrorShape(body, shape.data.httpStatus);
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
          const meter = ctx.meter ? { meter: ctx.meter } : {};
          return (await ctx.engine.search(input, { requestId: ctx.requestId, signal: ctx.signal, ...meter })).response;
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
