// What GET /api/recipes and GET /api/recipe-runs/:id answer (contract Recipe, RecipeRun): a recipe
// with its cost for one image, and a run with each image's steps (their jobs, charges and refunds).

import { BATCH_PATHS } from '../../contract/batches';
import { storedImageRef } from '../../contract/creations';
import type { Recipe, RecipeRun } from '../../contract/recipes';
import type { ToolId } from '../../contract/tools';
import { chargesOfJobs, filesOfJobs } from '../creations/creations-repository';
import type { AppDb } from '../db/client';
import { itemsOfRun, jobStates, type RecipeRow, type RecipeRunRow, sizeOfRun } from './recipe-repository';
import { recipeCost } from './recipe-steps';

export type ViewDeps = { db: AppDb; providerFor: (tool: ToolId) => string };

export const viewRecipe = (deps: ViewDeps, recipe: RecipeRow): Recipe => ({
  id: recipe.id,
  name: recipe.name,
  steps: recipe.steps,
  cost: recipeCost(recipe.steps, deps.providerFor),
  createdAt: recipe.createdAt.toISOString(),
});

export async function viewRun(deps: ViewDeps, run: RecipeRunRow): Promise<RecipeRun> {
  const { db } = deps;
  const items = await itemsOfRun(db, run.id);
  const ids = items.flatMap((item) => item.jobIds);
  const lastOfDone = items.filter((item) => item.status === 'done').map((item) => item.jobIds.at(-1) as string);
  const [states, charges, results] = await Promise.all([
    jobStates(db, ids),
    chargesOfJobs(db, ids),
    filesOfJobs(db, lastOfDone),
  ]);
  const counts = { running: 0, done: 0, failed: 0 };
  let charged = 0;
  let refunded = 0;
  const viewed = items.map((item) => {
    counts[item.status] += 1;
    const steps = item.jobIds.map((jobId) => {
      const money = charges.get(jobId) ?? { charged: 0, refunded: 0 };
      charged += money.charged;
      refunded += money.refunded;
      return { jobId, status: states.get(jobId)?.status ?? 'failed', ...money };
    });
    const last = item.jobIds.at(-1);
    const output = item.status === 'done' ? results.find((f) => f.jobId === last && f.kind === 'output') : undefined;
    return {
      item: item.item,
      name: item.name,
      status: item.status,
      steps,
      error: item.error,
      output: output ? storedImageRef(output.id) : null,
    };
  });
  return {
    id: run.id,
    recipeId: run.recipeId,
    name: run.name,
    steps: run.steps,
    size: await sizeOfRun(db, run),
    cost: recipeCost(run.steps, deps.providerFor),
    items: viewed,
    counts,
    charged,
    refunded,
    batchId: run.batchId,
    downloadUrl: `/api${BATCH_PATHS.download(run.batchId)}`,
    createdAt: run.createdAt.toISOString(),
  };
}
