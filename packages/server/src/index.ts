export * from './env.ts';
export * from './handler.ts';
export * from './keys-file.ts';
export * from './loopback.ts';
export * from './metrics.ts';
export * from './node-server.ts';
export * from './server-factory.ts';
export * from './server-provider.ts';
export { type AppRouter, appRouter, createTrpcCaller, type TrpcContext } from './trpc-router.ts';
