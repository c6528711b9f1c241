// Recipes (issue 58 item 5, decision 083): a named chain of image tools kept per account ("Shop
// listing": remove background -> upscale 2x), run on one image or a batch. Each step is its own
// tool call and job, charged when it starts and refunded on its own if it fails; a failed step stops
// the chain for that image. Server and page share the paths, limits, sentences and the chain's rule.
import type { z } from 'zod';
import { BATCH_TOOL_IDS, type BatchToolId, isBatchTool } from './batches';
import { MAX_RECIPE_NAME_LENGTH, MAX_RECIPE_RUN_IMAGES, MAX_RECIPE_STEPS, MAX_RECIPES } from './recipe-limits';
import type * as schemas from './recipe-schemas';
import { type ToolId, toolById } from './tools';

export { MAX_RECIPE_NAME_LENGTH, MAX_RECIPE_RUN_IMAGES, MAX_RECIPE_STEPS, MAX_RECIPES };

/** The API's paths (under /api). */
export const RECIPE_PATHS = {
  list: '/recipes',
  one: (id: string) => `/recipes/${id}`,
  run: (id: string) => `/recipes/${id}/run`,
  runState: (runId: string) => `/recipe-runs/${runId}`,
  runImages: (runId: string) => `/recipe-runs/${runId}/images`,
} as const;

/** One step: a tool and its own request fields, without the image (the previous step's result, or the upload). */
export type RecipeStep = { tool: BatchToolId; options: Record<string, unknown> };
/** POST /api/recipes. */
export type RecipeRequest = { name: string; steps: RecipeStep[] };

export type Recipe = z.output<typeof schemas.RECIPE>;
export type RecipeList = z.output<typeof schemas.RECIPE_LIST>;
export type RecipeRun = z.output<typeof schemas.RECIPE_RUN>;
export type RecipeRunItem = z.output<typeof schemas.RECIPE_RUN_ITEM>;

/** "Step 2 (Background Remover)": how a sentence names a step (counted from 1). */
export const stepName = (index: number, tool: ToolId) => `Step ${index + 1} (${toolById(tool).title})`;

export const RECIPE_MESSAGES = {
  name: `name: must be a name of 1 to ${MAX_RECIPE_NAME_LENGTH} characters`,
  steps: `steps: must be a list of 1 to ${MAX_RECIPE_STEPS} steps, each { "tool": ..., "options": { ... } }`,
  tooMany: `You have ${MAX_RECIPES} recipes. Delete one to save another.`,
  notStepTool: (index: number) =>
    `Step ${index + 1}: tool must be one of ${RECIPE_TOOL_IDS.join(', ')} (tools that take one image and make one result)`,
  afterNonImage: (index: number, tool: ToolId, before: ToolId) =>
    `${stepName(index, tool)} cannot follow ${toolById(before).title}: it makes ${toolById(before).response === 'analysis' ? 'keywords and colours' : 'several images'}, not one image the next step can take.`,
  option: (index: number, tool: ToolId, field: string, problem: string) =>
    `${stepName(index, tool)}: ${field}: ${problem}`,
  notFound: 'This recipe does not exist, or it was deleted.',
  runNotFound: 'This recipe run does not exist, or it was deleted.',
  size: `size: must be a whole number from 1 to ${MAX_RECIPE_RUN_IMAGES}`,
  runBody: `Send one image (as a tool call takes it), or { "size": n, "names": [...] } to start a batch of 1 to ${MAX_RECIPE_RUN_IMAGES} images.`,
  onlyImage: (field: string) =>
    `${field}: is not taken here: a recipe's options are its steps' (send the image and, optionally, its name)`,
  notABatch: 'This run takes one image: it was started with one.',
  nothingToDownload: 'No image of this run is done yet.',
  resultGone: 'its result is gone (deleted from My Creations), so the next step had no image.',
} as const;

/** The tools a step may use: those that take one image and make one result (the batch tools). */
export const RECIPE_TOOL_IDS: readonly ToolId[] = BATCH_TOOL_IDS;

/**
 * Why these tools, in this order, cannot be a recipe (the sentence, naming the step), or null. Every
 * step takes one image; every step but the last must make one image, since the next step takes it.
 */
export function chainRefusal(tools: readonly string[]): string | null {
  for (const [index, tool] of tools.entries()) {
    if (!isBatchTool(tool)) return RECIPE_MESSAGES.notStepTool(index);
    const before = index > 0 ? (tools[index - 1] as ToolId) : null;
    if (before && toolById(before).response !== 'image') return RECIPE_MESSAGES.afterNonImage(index, tool, before);
  }
  return null;
}
