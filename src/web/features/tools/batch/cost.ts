// What a batch costs, said before it runs, and how much of it the balance covers: the page offers
// what it can pay for (decision 062: a batch larger than the balance is the page's choice to make).
import { formatTokens } from '../../../lib/format-cost';

/** "1 image", "12 images". */
export const imagesText = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'image' : 'images'}`;

/** "12 images x 2 tokens = 24 tokens". */
export const costLine = (count: number, price: number) =>
  `${imagesText(count)} x ${formatTokens(price)} = ${formatTokens(count * price)}`;

/**
 * How many of `count` images a run takes: all of them (a free preview, a balance that covers them,
 * or a balance not known here, which the checks on the click then decide), the ones the balance
 * covers, or none.
 */
export type RunPlan = { covers: 'all' | 'some' | 'none'; runs: number };

export function runPlan(count: number, price: number, balance: number | null): RunPlan {
  if (price <= 0 || balance === null || balance >= count * price) return { covers: 'all', runs: count };
  const affordable = Math.floor(balance / price);
  return affordable > 0 ? { covers: 'some', runs: affordable } : { covers: 'none', runs: 0 };
}

/** The run button's words: "Run 12 images", "Run the 7 images your balance covers". */
export const runLabel = ({ covers, runs }: RunPlan) =>
  covers === 'some' ? `Run the ${imagesText(runs)} your balance covers` : `Run ${imagesText(runs)}`;
