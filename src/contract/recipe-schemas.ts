// Recipes' requests and answers as zod schemas (decision 083): the one source of their types
// (recipes.ts derives them with `import type`, so the page loads no zod) and of the OpenAPI document.
import { z } from 'zod';
import { JOB_STATUS } from './api-response-schemas';
import { BATCH_TOOL_IDS } from './batches';
import { MAX_RECIPE_NAME_LENGTH, MAX_RECIPE_RUN_IMAGES, MAX_RECIPE_STEPS } from './recipe-limits';

export const RECIPE_STEP = z
  .object({
    tool: z.enum(BATCH_TOOL_IDS).describe('A tool that takes one image and makes one result.'),
    options: z
      .record(z.string(), z.unknown())
      .describe(
        "The tool's own request fields without the image (as in POST /api/<tool>: `scale`, `background`, `outputFormat`...), checked against its request when the recipe is saved.",
      ),
  })
  .describe("One step of a recipe: its input is the previous step's result (the first step's: the image sent).");

export const RECIPE_REQUEST = z.object({
  name: z.string().min(1).max(MAX_RECIPE_NAME_LENGTH),
  steps: z
    .array(RECIPE_STEP)
    .min(1)
    .max(MAX_RECIPE_STEPS)
    .describe('In order. Every step but the last must make one image (not an analysis).'),
});

export const RECIPE = z
  .object({
    id: z.string(),
    name: z.string(),
    steps: z.array(RECIPE_STEP),
    cost: z
      .number()
      .describe('Tokens one image takes through every step, at the prices of the providers serving the tools now.'),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .describe('A recipe of the account.');

export const RECIPE_LIST = z.object({ recipes: z.array(RECIPE).describe('Newest first.') });

export const RECIPE_RUN_REQUEST = z
  .object({
    size: z.int().min(1).max(MAX_RECIPE_RUN_IMAGES).describe('How many images will be sent.'),
    names: z.array(z.string().min(1)).optional().describe("The images' file names in their order, one for each."),
  })
  .describe(
    'A batch run: then send each image to POST /api/recipe-runs/{id}/images. For one image, send the image itself instead (as JSON `{ "image": ... }` or multipart).',
  );

export const RECIPE_RUN_STEP = z.object({
  jobId: z.string(),
  status: JOB_STATUS,
  charged: z.number().describe('Tokens taken for this step.'),
  refunded: z.number().describe('Tokens given back (the step failed).'),
});

export const RECIPE_RUN_ITEM = z
  .object({
    item: z.number().describe("The image's place in the run, from 0."),
    name: z.string(),
    status: z
      .enum(['running', 'done', 'failed'])
      .describe(
        'running: a step waits or runs; done: every step made its result; failed: a step failed or was refused.',
      ),
    steps: z.array(RECIPE_RUN_STEP).describe('The steps started so far, in order (each its own job).'),
    error: z.string().nullable().describe('Why the chain stopped for this image.'),
    output: z.string().nullable().describe("The last step's result (/api/files/<id>) once done; null otherwise."),
  })
  .describe('One image through the recipe.');

export const RECIPE_RUN = z
  .object({
    id: z.string(),
    recipeId: z.string().nullable().describe('The recipe run (null once deleted: the run keeps its steps).'),
    name: z.string(),
    steps: z.array(RECIPE_STEP).describe('The steps as they were when the run started.'),
    size: z.number().describe('How many images the run takes.'),
    cost: z.number().describe('Tokens one image takes through every step.'),
    items: z.array(RECIPE_RUN_ITEM).describe('The images sent so far, in order.'),
    counts: z.object({ running: z.number(), done: z.number(), failed: z.number() }),
    charged: z.number().describe('Tokens taken for every step of every image so far.'),
    refunded: z.number().describe('Tokens given back for the steps that failed.'),
    batchId: z.string().describe("The batch holding the last steps' results (GET /api/batches/{id})."),
    downloadUrl: z.string().describe("A zip of the results (the batch's), with README.txt."),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .describe('A run of a recipe: each image through each step, each step its own job.');
