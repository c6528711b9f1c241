// Recipes over HTTP (issue 58 item 5, decision 083): GET/POST /api/recipes and DELETE
// /api/recipes/:id keep an account's recipes; POST /api/recipes/:id/run runs one on an image (its
// first step called at once, 202) or starts a batch run (201) whose images come to POST
// /api/recipe-runs/:id/images; GET /api/recipe-runs/:id reads a run. Every step is a call of the
// tool-call service (recipe-runner.ts); a run's last steps' results are its batch's, zipped there.
import { type Context, Hono } from 'hono';
import { BATCH_IMAGE_FIELDS, BATCH_MESSAGES } from '../../contract/batches';
import { INPUT_MESSAGES, TOOL_BODY_MAX_BYTES } from '../../contract/input-limits';
import {
  MAX_RECIPE_RUN_IMAGES,
  MAX_RECIPES,
  RECIPE_MESSAGES,
  RECIPE_PATHS,
  type RecipeList,
  type RecipeStep,
} from '../../contract/recipes';
import type { ToolRefusal } from '../../contract/tool-responses';
import { TOOL_MESSAGES, type ToolId, toolById } from '../../contract/tools';
import { describeRoute } from '../api-docs/describe-route';
import { sessionUser } from '../auth/session';
import {
  areBatchNames,
  batchItemOf,
  isBatchName,
  queuedImageAnswer,
  refusesTheImage,
} from '../batches/batch-image-request';
import { deleteFinishedBatch, findOwnBatch, insertBatch, noteRefusedImage } from '../batches/batch-repository';
import { isUuid } from '../db/ids';
import { readToolCallBody } from '../jobs/request/tool-call-body';
import { countedCaller, refusalAnswer, type ToolRoutesDeps } from '../jobs/request/tool-call-routes';
import { standingRefusal, type ToolCallRequest } from '../jobs/request/tool-call-service';
import { PRIVATE_JSON_CACHE } from '../responses/private-cache';
import { bodyTooLarge, limitBody } from '../security/body-limit';
import {
  ADD_RECIPE_RUN_IMAGE_OPERATION,
  DELETE_RECIPE_OPERATION,
  GET_RECIPE_RUN_OPERATION,
  LIST_RECIPES_OPERATION,
  RUN_RECIPE_OPERATION,
  SAVE_RECIPE_OPERATION,
} from './api-docs';
import {
  countRecipes,
  deleteOwnRecipe,
  findOwnRecipe,
  findOwnRun,
  insertItem,
  insertRecipe,
  insertRun,
  type RecipeRunRow,
  recipesOf,
} from './recipe-repository';
import { callStep, type RecipeRunner, type RunPlace } from './recipe-runner';
import { imageFieldOf, parseRecipe, recipeCost } from './recipe-steps';
import { viewRecipe, viewRun } from './recipe-view';

export type RecipeRoutesDeps = Omit<ToolRoutesDeps, 'waitMs'> & { runner: RecipeRunner };

/** What one image of a run is named when no name came with it. */
const DEFAULT_IMAGE_NAME = 'image';

const toolBodyLimit = limitBody(TOOL_BODY_MAX_BYTES, (c) =>
  bodyTooLarge(c, { success: false, error: INPUT_MESSAGES.requestTooLarge }),
);

export function recipeRoutes(deps: RecipeRoutesDeps) {
  const { db, auth } = deps;
  const providerFor = (tool: ToolId) => deps.inference.providerFor(tool).name;
  const views = { db, providerFor };
  const app = new Hono();

  app.get(RECIPE_PATHS.list, describeRoute(LIST_RECIPES_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    const answer: RecipeList = { recipes: (await recipesOf(db, user.id)).map((row) => viewRecipe(views, row)) };
    return c.json(answer);
  });

  app.post(RECIPE_PATHS.list, describeRoute(SAVE_RECIPE_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const recipe = parseRecipe(await c.req.json().catch(() => null));
    if ('error' in recipe) return c.json({ error: recipe.error }, 400);
    if ((await countRecipes(db, user.id)) >= MAX_RECIPES) return c.json({ error: RECIPE_MESSAGES.tooMany }, 409);
    const row = await insertRecipe(db, { userId: user.id, ...recipe });
    return c.json(viewRecipe(views, row), 201);
  });

  app.delete('/recipes/:id', describeRoute(DELETE_RECIPE_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    const deleted = isUuid(id) && (await deleteOwnRecipe(db, id, user.id));
    if (!deleted) return c.json({ error: RECIPE_MESSAGES.notFound }, 404);
    return c.body(null, 204);
  });

  app.post('/recipes/:id/run', describeRoute(RUN_RECIPE_OPERATION), toolBodyLimit, async (c) => {
    const counted = await countedCaller(c, deps);
    if (counted instanceof Response) return counted;
    const { user, caller } = counted;
    const standing = standingRefusal(user, caller);
    if (standing) return refusalAnswer(c, standing);
    const id = c.req.param('id');
    const recipe = isUuid(id) ? await findOwnRecipe(db, id, user.id) : null;
    if (!recipe) return c.json({ success: false, error: RECIPE_MESSAGES.notFound } satisfies ToolRefusal, 404);
    const [first] = recipe.steps as [RecipeStep];
    const read = await readToolCallBody(c.req, toolById(first.tool), ['name', 'size', 'names']);
    if ('error' in read) return c.json({ success: false, error: read.error } satisfies ToolRefusal, read.status);
    const { name, size, names, ...rest } = read.body;
    const image = rest[imageFieldOf(first.tool)];
    const batchRun = size !== undefined || names !== undefined;
    if (batchRun === (image !== undefined)) return refuse(c, 400, RECIPE_MESSAGES.runBody);
    const other = Object.keys(rest).find((field) => field !== imageFieldOf(first.tool));
    if (other) return refuse(c, 400, RECIPE_MESSAGES.onlyImage(other));

    // Not one image's chain affordable: said now, before anything is made (each step is charged as it starts).
    const cost = recipeCost(recipe.steps, providerFor);
    const tokens = caller?.tokens ?? 0;
    if (tokens < cost) return c.json({ success: false, error: TOOL_MESSAGES.notEnoughTokens, balance: tokens }, 402);

    /** The run, and the batch its last steps' results go to. */
    const newRun = async (images: { size: number; names?: string[] }) => {
      const batch = await insertBatch(db, {
        userId: user.id,
        tool: (recipe.steps.at(-1) as RecipeStep).tool,
        ...images,
      });
      return insertRun(db, {
        userId: user.id,
        recipeId: recipe.id,
        name: recipe.name,
        steps: recipe.steps,
        batchId: batch.id,
      });
    };

    if (batchRun) {
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_RECIPE_RUN_IMAGES)
        return refuse(c, 400, RECIPE_MESSAGES.size);
      if (names !== undefined && !areBatchNames(names, size)) return refuse(c, 400, BATCH_MESSAGES.names);
      return c.json(await viewRun(views, await newRun({ size, names })), 201);
    }

    if (name !== undefined && !isBatchName(name)) return refuse(c, 400, BATCH_MESSAGES.name);
    const imageName = typeof name === 'string' ? name.trim() : DEFAULT_IMAGE_NAME;
    const run = await newRun({ size: 1, names: [imageName] });
    const outcome = await startImage(run, { item: 0, name: imageName }, image as string, counted, c.req.raw.signal);
    if (outcome.kind === 'refused') {
      // Nothing was made of it: the run goes (with its batch), and the refusal is the answer.
      await deleteFinishedBatch(db, run.batchId, user.id);
      return refusalAnswer(c, outcome);
    }
    return c.json(await viewRun(views, run), 202);
  });

  app.post('/recipe-runs/:id/images', describeRoute(ADD_RECIPE_RUN_IMAGE_OPERATION), toolBodyLimit, async (c) => {
    const counted = await countedCaller(c, deps);
    if (counted instanceof Response) return counted;
    const { user } = counted;
    const id = c.req.param('id');
    const run = isUuid(id) ? await findOwnRun(db, id, user.id) : null;
    const batch = run ? await findOwnBatch(db, run.batchId, user.id) : null;
    if (!run || !batch) return refuse(c, 404, RECIPE_MESSAGES.runNotFound);
    const [first] = run.steps as [RecipeStep];
    const read = await readToolCallBody(c.req, toolById(first.tool), BATCH_IMAGE_FIELDS);
    if ('error' in read) return c.json({ success: false, error: read.error } satisfies ToolRefusal, read.status);
    const { item: rawItem, name, ...rest } = read.body;
    const other = Object.keys(rest).find((field) => field !== imageFieldOf(first.tool));
    if (other) return refuse(c, 400, RECIPE_MESSAGES.onlyImage(other));
    const item = batchItemOf(rawItem, batch.size);
    if (item === null) return refuse(c, 400, BATCH_MESSAGES.item(batch.size));
    if (!isBatchName(name)) return refuse(c, 400, BATCH_MESSAGES.name);
    const place = { item, name: name.trim() };
    const outcome = await startImage(run, place, rest[imageFieldOf(first.tool)], counted, c.req.raw.signal);
    if (outcome.kind === 'refused') {
      // Also said where the run is read.
      if (refusesTheImage(outcome)) {
        await insertItem(db, { runId: run.id, ...place, status: 'failed', error: outcome.error });
        await noteRefusedImage(db, run.batchId, { ...place, error: outcome.error });
      }
      return refusalAnswer(c, outcome);
    }
    return c.json(await queuedImageAnswer(db, user.id, { jobId: outcome.jobId, item }), 202);
  });

  app.get('/recipe-runs/:id', describeRoute(GET_RECIPE_RUN_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    const run = isUuid(id) ? await findOwnRun(db, id, user.id) : null;
    if (!run) return c.json({ error: RECIPE_MESSAGES.runNotFound }, 404);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json(await viewRun(views, run));
  });

  /** An image's first step called; its row records the job, and the runner takes it from there. */
  async function startImage(
    run: RecipeRunRow,
    place: RunPlace,
    image: unknown,
    counted: Pick<ToolCallRequest, 'user' | 'caller'>,
    signal: AbortSignal,
  ) {
    const outcome = await callStep(deps, run, place, 0, image as string, {
      user: counted.user,
      caller: counted.caller,
      signal,
    });
    if (outcome.kind === 'job') {
      await insertItem(db, { runId: run.id, ...place, status: 'running', jobId: outcome.jobId });
      if (outcome.isNew && !outcome.handedOver) deps.signals?.queued();
      deps.runner.wake();
    }
    return outcome;
  }

  return app;
}

const refuse = (c: Context, status: 400 | 404, error: string) =>
  c.json({ success: false, error } satisfies ToolRefusal, status);
