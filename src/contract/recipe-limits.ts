// Recipes' limits (decision 083), shared by their schemas (recipe-schemas.ts) and recipes.ts.
import { MAX_BATCH_IMAGES } from './batches';

/** Steps one recipe may hold. */
export const MAX_RECIPE_STEPS = 8;
/** Recipes one account may keep. */
export const MAX_RECIPES = 50;
export const MAX_RECIPE_NAME_LENGTH = 80;
/** Images one run of a recipe may take: a batch's. */
export const MAX_RECIPE_RUN_IMAGES = MAX_BATCH_IMAGES;
