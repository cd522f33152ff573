import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// `.openapi()` metadata on every schema of the contract; done once, here.
extendZodWithOpenApi(z);

export { z };
