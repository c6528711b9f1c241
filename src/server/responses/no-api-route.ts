// The answer to a request no API route serves: also what /api/admin answers anyone but an operator
// (admin/routes.ts), so that the console's routes cannot be told from routes that do not exist.
import type { Context } from 'hono';

export const noApiRoute = (c: Context) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}` }, 404);
