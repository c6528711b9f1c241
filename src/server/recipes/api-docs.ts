// The OpenAPI operations of recipes (declared on their routes in routes.ts; decision 083).
import { MAX_RECIPE_RUN_IMAGES } from '../../contract/recipes';
import { idParameter, json, RATE_LIMIT_HEADERS, ref, refusal, toolRefusals } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

const recipeId = idParameter('The recipe id.');
const runId = idParameter('The recipe run id.');
const noSuchRecipe = refusal('No such recipe of this account.');
const noSuchRun = refusal('No such recipe run of this account.');

export const LIST_RECIPES_OPERATION: OperationDoc = {
  operationId: 'listRecipes',
  tag: 'Recipes',
  summary: "List the account's recipes",
  description: 'Newest first, each with its `cost`: the tokens one image takes through all its steps here now.',
  access: 'key-or-session',
  responses: { '200': { description: 'The recipes.', content: json('RecipeList') } },
};

export const SAVE_RECIPE_OPERATION: OperationDoc = {
  operationId: 'saveRecipe',
  tag: 'Recipes',
  summary: 'Save a recipe',
  description:
    "A name and its steps, each a tool that takes one image and makes one result with the tool's own request fields (without the image) as `options`. Each step's options are checked against its tool's request now: a bad one is refused naming the step and the field. A step after Image Analyzer is refused (an analysis is not an image).",
  access: 'key-or-session',
  body: { 'application/json': ref('RecipeRequest') },
  responses: {
    '201': { description: 'Saved.', content: json('Recipe') },
    '400': refusal('A name or steps that are not a recipe, or a bad option (the step and the field named).'),
    '409': refusal('The account keeps as many recipes as it may.'),
  },
};

export const DELETE_RECIPE_OPERATION: OperationDoc = {
  operationId: 'deleteRecipe',
  tag: 'Recipes',
  summary: 'Delete a recipe',
  description: 'Its runs keep their steps and results.',
  access: 'session',
  parameters: [recipeId],
  responses: { '204': { description: 'Deleted.' }, '404': noSuchRecipe },
};

export const RUN_RECIPE_OPERATION: OperationDoc = {
  operationId: 'runRecipe',
  tag: 'Recipes',
  summary: 'Run a recipe',
  description: `One image (JSON \`{ "image": ..., "name": ... }\` with the image as in a tool call, or multipart/form-data with an \`image\` file part): its first step is called at once, answered 202 with the run; each next step starts when the one before succeeds. Or JSON \`{ "size": n, "names": [...] }\` (1 to ${MAX_RECIPE_RUN_IMAGES}): a batch run, answered 201; send its images to POST /api/recipe-runs/{id}/images. Each step is its own job at its tool's price, charged when it starts and refunded if it fails; a failed step stops that image's chain, and the steps after it are never charged.`,
  access: 'key-or-session',
  parameters: [recipeId],
  body: {
    'application/json': { anyOf: [ref('RecipeRunImageRequest'), ref('RecipeRunRequest')] },
    'multipart/form-data': ref('RecipeRunImageMultipartRequest'),
  },
  responses: {
    '201': {
      description: 'A batch run, waiting for its images.',
      headers: RATE_LIMIT_HEADERS,
      content: json('RecipeRun'),
    },
    '202': {
      description: "The image's first step is queued.",
      headers: RATE_LIMIT_HEADERS,
      content: json('RecipeRun'),
    },
    ...toolRefusals(),
    '404': refusal('No such recipe of this account.', 'ToolRefusal'),
  },
};

export const ADD_RECIPE_RUN_IMAGE_OPERATION: OperationDoc = {
  operationId: 'addRecipeRunImage',
  tag: 'Recipes',
  summary: 'Send an image of a batch run',
  description:
    'The image (JSON or multipart, as a tool call takes it) with `item` (0 to size - 1) and `name`: its first step is called at once, the next ones as each succeeds. Sending an item again answers the job it made.',
  access: 'key-or-session',
  parameters: [runId],
  body: {
    'application/json': ref('BatchImageRequest'),
    'multipart/form-data': ref('BatchImageMultipartRequest'),
  },
  responses: {
    '202': {
      description: "The image's first step is queued.",
      headers: RATE_LIMIT_HEADERS,
      content: json('BatchImageQueued'),
    },
    ...toolRefusals(),
    '404': refusal('No such recipe run of this account.', 'ToolRefusal'),
  },
};

export const GET_RECIPE_RUN_OPERATION: OperationDoc = {
  operationId: 'getRecipeRun',
  tag: 'Recipes',
  summary: 'Read a recipe run',
  description:
    "Each image with its steps so far (their jobs, charges and refunds), whether it is done or failed (and why), and its result; the zip of the results is the run's batch's (`downloadUrl`).",
  access: 'key-or-session',
  parameters: [runId],
  responses: { '200': { description: 'The run.', content: json('RecipeRun') }, '404': noSuchRun },
};
