// "Save as recipe" from a result's "Send to" history (decision 083): the tools a result went through
// on this device, each with the options it was made with, kept in sessionStorage by the result's
// stored file (/api/files/<id>). A result of a tool whose image was another result sent here adds its
// step to that one's history; the recipes page opens with the history as a new recipe's steps.
import { isBatchTool } from '../../../contract/batches';
import { storedImageId } from '../../../contract/creations';
import type { RecipeStep } from '../../../contract/recipes';
import { ROUTES } from '../../../contract/routes';
import type { ToolId } from '../../../contract/tools';

const STORAGE_KEY = 'pp-send-history';
/** Results remembered at most (the oldest go first). */
const MAX_RESULTS = 100;
/** The recipes page's parameter: the result whose history becomes the new recipe's steps. */
export const RECIPE_FROM_PARAM = 'from';
/** Fields of a call that are not a step's options: the image (the chain's), who calls, where to report. */
const NOT_OPTIONS = new Set(['image', 'userId', 'webhook']);

type History = Record<string, RecipeStep[]>;

function read(): History {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as History) : {};
  } catch {
    return {};
  }
}

/** The steps that made the stored result at `url`, oldest first; none when it is not known here. */
export const stepsOf = (url: string): RecipeStep[] => read()[url] ?? [];

/**
 * Notes that `outputs` were made by `tool` from the call `request`: their steps are the input's (when
 * it was a stored result) and this one. Null for a tool a recipe cannot hold.
 */
export function recordResults(tool: ToolId, request: Record<string, unknown>, outputs: readonly string[]) {
  if (!isBatchTool(tool) || outputs.length !== 1) return null;
  const input = request.image;
  const before = typeof input === 'string' && storedImageId(input) ? stepsOf(input) : [];
  const options = Object.fromEntries(
    Object.entries(request).filter(([field, value]) => !NOT_OPTIONS.has(field) && value !== undefined),
  );
  const steps: RecipeStep[] = [...before, { tool, options }];
  const history = read();
  for (const url of outputs) history[url] = steps;
  const urls = Object.keys(history);
  for (const url of urls.slice(0, Math.max(0, urls.length - MAX_RESULTS))) delete history[url];
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(history));
  } catch {
    // Storage full or off: the result just cannot be saved as a recipe from here.
  }
  return steps;
}

/** The recipes page with the steps of the result at `url` as a new recipe. */
export const saveAsRecipePath = (url: string) => `${ROUTES.recipes}?${RECIPE_FROM_PARAM}=${encodeURIComponent(url)}`;
