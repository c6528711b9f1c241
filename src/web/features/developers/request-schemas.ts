// Every tool's request schema, for the reference on /developers: each tool's `request`
// (contract/tools/<tool-id>/request.ts), found by Vite's import.meta.glob and keyed by its folder's
// name, which is the tool's id; so no list of them is kept anywhere. Eager: this module is only on
// the /developers page's own (lazy) chunk. A test that adds a tool adds its schema by mocking this
// module (src/web/features/tools/throwaway-tool.test.tsx).
import type { z } from 'zod';

const MODULES = import.meta.glob<{ request: z.ZodObject }>('../../../contract/tools/*/request.ts', { eager: true });

/** Each tool's request schema, by tool id. */
export const REQUEST_SCHEMAS: Readonly<Record<string, z.ZodObject>> = Object.fromEntries(
  Object.entries(MODULES).map(([path, module]) => [path.split('/').at(-2), module.request]),
);
