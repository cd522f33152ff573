export * from './engine-backend.ts';
export * from './mcp-server.ts';
export * from './stdio.ts';
export * from './tool-schemas.ts';
export * from './tool-text.ts';
