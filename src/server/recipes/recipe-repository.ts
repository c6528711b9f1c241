// The SQL of recipes (decision 083): an account's recipes, their runs and each run's images.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { RecipeStep } from '../../contract/recipes';
import type { AppDb } from '../db/client';
import { batches, jobs, recipeRunItems, recipeRuns, recipes, user } from '../db/schema';

export type RecipeRow = typeof recipes.$inferSelect;
export type RecipeRunRow = typeof recipeRuns.$inferSelect;
export type RecipeRunItemRow = typeof recipeRunItems.$inferSelect;

export function recipesOf(db: AppDb, userId: string): Promise<RecipeRow[]> {
  return db.select().from(recipes).where(eq(recipes.userId, userId)).orderBy(desc(recipes.createdAt), desc(recipes.id));
}

export async function countRecipes(db: AppDb, userId: string): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(recipes).where(eq(recipes.userId, userId));
  return Number(row?.count ?? 0);
}

export async function insertRecipe(
  db: AppDb,
  recipe: { userId: string; name: string; steps: RecipeStep[] },
): Promise<RecipeRow> {
  const [row] = await db.insert(recipes).values(recipe).returning();
  if (!row) throw new Error('the recipe was not inserted');
  return row;
}

/** The user's recipe, or null (another user's is the same null). */
export async function findOwnRecipe(db: AppDb, id: string, userId: string): Promise<RecipeRow | null> {
  const [row] = await db
    .select()
    .from(recipes)
    .where(and(eq(recipes.id, id), eq(recipes.userId, userId)));
  return row ?? null;
}

/** Deletes the user's recipe; its runs keep their steps. False: no such recipe. */
export async function deleteOwnRecipe(db: AppDb, id: string, userId: string): Promise<boolean> {
  const deleted = await db
    .delete(recipes)
    .where(and(eq(recipes.id, id), eq(recipes.userId, userId)))
    .returning({ id: recipes.id });
  return deleted.length > 0;
}

export async function insertRun(
  db: AppDb,
  run: Pick<RecipeRunRow, 'userId' | 'recipeId' | 'name' | 'steps' | 'batchId'>,
): Promise<RecipeRunRow> {
  const [row] = await db.insert(recipeRuns).values(run).returning();
  if (!row) throw new Error('the recipe run was not inserted');
  return row;
}

export async function findOwnRun(db: AppDb, id: string, userId: string): Promise<RecipeRunRow | null> {
  const [row] = await db
    .select()
    .from(recipeRuns)
    .where(and(eq(recipeRuns.id, id), eq(recipeRuns.userId, userId)));
  return row ?? null;
}

export async function findRun(db: AppDb, id: string): Promise<RecipeRunRow | null> {
  const [row] = await db.select().from(recipeRuns).where(eq(recipeRuns.id, id));
  return row ?? null;
}

export function itemsOfRun(db: AppDb, runId: string): Promise<RecipeRunItemRow[]> {
  return db.select().from(recipeRunItems).where(eq(recipeRunItems.runId, runId)).orderBy(asc(recipeRunItems.item));
}

export async function findItem(db: AppDb, runId: string, item: number): Promise<RecipeRunItemRow | null> {
  const [row] = await db
    .select()
    .from(recipeRunItems)
    .where(and(eq(recipeRunItems.runId, runId), eq(recipeRunItems.item, item)));
  return row ?? null;
}

/**
 * An image's first step recorded: running with its job, or failed with the refusal's sentence. An
 * image sent again (its first job answered again) keeps the row it has.
 */
export async function insertItem(
  db: AppDb,
  item: { runId: string; item: number; name: string } & (
    | { status: 'running'; jobId: string }
    | { status: 'failed'; error: string }
  ),
): Promise<void> {
  const { runId, name } = item;
  const values =
    item.status === 'running'
      ? { runId, item: item.item, name, status: 'running' as const, jobIds: [item.jobId] }
      : { runId, item: item.item, name, status: 'failed' as const, jobIds: [], error: item.error };
  // An image the server refused (no job) may be sent again; one with a job keeps its row.
  await db
    .insert(recipeRunItems)
    .values(values)
    .onConflictDoUpdate({
      target: [recipeRunItems.runId, recipeRunItems.item],
      set: { ...values, error: item.status === 'failed' ? item.error : null },
      setWhere: sql`jsonb_array_length(${recipeRunItems.jobIds}) = 0`,
    });
}

/**
 * The running images whose last step's job has ended (succeeded or failed), with that job's state:
 * what the runner moves on. Read from recipe_run_items_running_idx.
 */
export async function endedSteps(db: AppDb, limit: number) {
  return db
    .select({
      runId: recipeRunItems.runId,
      item: recipeRunItems.item,
      name: recipeRunItems.name,
      jobIds: recipeRunItems.jobIds,
      jobStatus: jobs.status,
      jobError: jobs.error,
    })
    .from(recipeRunItems)
    .innerJoin(
      jobs,
      sql`${jobs.id} = (${recipeRunItems.jobIds} ->> (jsonb_array_length(${recipeRunItems.jobIds}) - 1))::uuid`,
    )
    .where(and(eq(recipeRunItems.status, 'running'), inArray(jobs.status, ['succeeded', 'failed'])))
    .limit(limit);
}

/**
 * Moves an image on from the step it was at (`steps` jobs so far): one more job, or its end. Only
 * while it is still there: false when another process moved it first (then it did the same).
 */
export async function moveItem(
  db: AppDb,
  at: { runId: string; item: number; steps: number },
  to: { nextJobId: string } | { status: 'done' } | { status: 'failed'; error: string },
): Promise<boolean> {
  const set =
    'nextJobId' in to
      ? { jobIds: sql`${recipeRunItems.jobIds} || ${JSON.stringify([to.nextJobId])}::jsonb` }
      : to.status === 'done'
        ? { status: 'done' as const }
        : { status: 'failed' as const, error: to.error };
  const moved = await db
    .update(recipeRunItems)
    .set(set)
    .where(
      and(
        eq(recipeRunItems.runId, at.runId),
        eq(recipeRunItems.item, at.item),
        eq(recipeRunItems.status, 'running'),
        sql`jsonb_array_length(${recipeRunItems.jobIds}) = ${at.steps}`,
      ),
    )
    .returning({ item: recipeRunItems.item });
  return moved.length > 0;
}

/** Whether the account's email is verified (the runner calls the next step as its owner). */
export async function emailVerifiedOf(db: AppDb, userId: string): Promise<boolean | null> {
  const [row] = await db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, userId));
  return row ? row.verified : null;
}

/** The state and charge of these jobs, by id. */
export async function jobStates(db: AppDb, ids: string[]) {
  if (ids.length === 0) return new Map<string, { status: JobStatus; charged: number }>();
  const rows = await db
    .select({ id: jobs.id, status: jobs.status, charged: jobs.charged })
    .from(jobs)
    .where(inArray(jobs.id, ids));
  return new Map(rows.map((row) => [row.id, { status: row.status, charged: row.charged }]));
}

type JobStatus = (typeof jobs.$inferSelect)['status'];

/** How many images the run takes (its batch's size). */
export async function sizeOfRun(db: AppDb, run: Pick<RecipeRunRow, 'batchId'>): Promise<number> {
  const [row] = await db.select({ size: batches.size }).from(batches).where(eq(batches.id, run.batchId));
  return row?.size ?? 0;
}
