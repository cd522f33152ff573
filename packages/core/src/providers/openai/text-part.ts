// A module of its own, free of the stream's schemas: `candidates.ts`, which the provider loads
// with the engine, reads it, while the schemas load only with the transport (the CLI's cold start).

/** The key of one output text part (`itemId:contentIndex`) in a receipt's `texts`. */
export const textPartKey = (itemId: string, contentIndex: number): string => `${itemId}:${contentIndex}`;
