import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { ZodType, z } from 'zod';

// `.openapi()` metadata on every schema of the contract; done once, here. The extension only
// patches `ZodType.prototype`: handing it the class alone, not the `z` namespace as a value, lets
// a bundler drop what the contract never uses (zod's ~275 KB of error-message locales).
extendZodWithOpenApi({ ZodType } as unknown as typeof z);

export { z };
