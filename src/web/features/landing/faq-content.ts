// The landing page's twelve questions. Answers that quote prices or costs are built from the shared
// tables and this server's prices (GET /api/tools, lib/tool-prices.ts), so the FAQ can never disagree
// with the tools, what they charge here or the checkout. The spec's FAQ statements stay word for word.
import { SIGNUP_TOKENS } from '../../../contract/accounts';
import { MAX_BATCH_IMAGES } from '../../../contract/batches';
import { formatPrice, TOKEN_PACKAGES } from '../../../contract/packages';
import { startTool } from '../../../contract/routes';
import { toolCountInWords } from '../../../contract/tool-count';
import { TOOLS } from '../../../contract/tools';
import { FREE_PREVIEW_MEANING, listInWords, priceInWords, type ToolPrices } from '../../lib/tool-prices';

export type FaqItem = { question: string; answer: string };

const packages = TOKEN_PACKAGES.map(
  (p) => `${p.tokens.toLocaleString('en-US')} tokens for ${formatPrice(p.priceCents)}`,
);

/** The spec's statement, and where Text to Pic is a free preview here, that. */
function howTokensWork({ of }: ToolPrices): string {
  const statement =
    'Tokens are how you pay for the tools. One token makes one Text to Pic image, so each picture costs 1 cent. Buy a package, and every tool takes its price from the same balance.';
  const start = of(startTool().id);
  return start.freePreview
    ? `${statement} Here ${start.tool.title} is a free preview for now: ${FREE_PREVIEW_MEANING}.`
    : statement;
}

/** Every tool's price here, cheapest first, then the tools given as free previews. */
function eachToolsCost({ paid, previews }: ToolPrices): string {
  const statement = 'Each tool states its own cost, on its button before you click';
  if (paid.length === 0) return `${statement}. Here every tool is a free preview for now: ${FREE_PREVIEW_MEANING}.`;
  const costs = `${statement}: ${paid.map((price) => `${price.tool.title} ${priceInWords(price)}`).join('; ')}.`;
  if (previews.length === 0) return costs;
  const named = listInWords(previews.map((price) => price.tool.title));
  return `${costs} ${named} ${previews.length === 1 ? 'is a free preview' : 'are free previews'} here: ${FREE_PREVIEW_MEANING}.`;
}

/** What the sign-up tokens let a new user try: the cheapest tools that are real here. */
function freeTrial({ paid, previews }: ToolPrices): string {
  const start = `Every new account starts with ${SIGNUP_TOKENS} free tokens`;
  const affordable = paid.filter((price) => price.price <= SIGNUP_TOKENS).slice(0, 3);
  if (affordable.length === 0) return `${start}. Here every tool is a free preview for now, so trying them takes none.`;
  const trial = `${start}: enough to try ${listInWords(affordable.map((price) => price.tool.title))} before you buy anything.`;
  return previews.length > 0 ? `${trial} The free previews take none.` : trial;
}

/** The tools whose uploads the spec limits to 5 MB (their definitions' `image.spec5MB`), the others' one image or a batch. */
function whichImages(): string {
  const fiveMB = TOOLS.filter((tool) => tool.image?.spec5MB).map((tool) => tool.title);
  const limited =
    fiveMB.length > 0
      ? `${listInWords(fiveMB)} ${fiveMB.length === 1 ? 'takes' : 'take'} files up to 5 MB; the other tools take`
      : 'The tools take';
  return `PNG, JPG and WEBP photos. ${limited} one image, or up to ${MAX_BATCH_IMAGES} at once as a batch, by drag and drop or from a file picker. What you upload and make is kept in My Creations for a limited time (by default uploads 7 days, results 90 days; the page says how long), where you can delete it at any time; User Settings downloads or deletes everything.`;
}

/** The spec's statement, then where support is (SUPPORT_EMAIL) when this server has an address. */
function whenToolsFail(supportEmail: string | null): string {
  const statement =
    'You only pay for results. If a job fails, its tokens go straight back to your balance. Where a tool shows “Free preview: a labelled sample, not AI”, its sample is free: it takes no tokens.';
  return supportEmail
    ? `${statement} Anything else, or a message that asks you to contact support: write to ${supportEmail} (“Contact support” at the foot of every page), with the reference the message gave, if any.`
    : statement;
}

/** The twelve questions, with this server's prices and support address (null: none set). */
export const faqFor = (prices: ToolPrices, supportEmail: string | null = null): readonly FaqItem[] => [
  {
    question: 'What is Picture Palette?',
    answer: `A studio of ${toolCountInWords()} AI image tools for designers and creatives: generate pictures from text, put yourself in new scenes, upscale, colorize, remove or swap backgrounds, fix faces, set type in images and analyze colours, all paid for from one token balance.`,
  },
  {
    question: 'How do tokens work?',
    answer: howTokensWork(prices),
  },
  {
    question: 'How many tokens does each tool use?',
    answer: eachToolsCost(prices),
  },
  {
    question: 'Do my tokens expire?',
    answer:
      'Never. Tokens do not expire, and unused tokens roll over: what you do not spend this month is still there next year.',
  },
  {
    question: 'Can I use the images commercially?',
    answer:
      'Yes. Images you generate may be used commercially, in client work, ads, products and social posts, unless they contain trademarks or logos.',
  },
  {
    question: 'What sizes can I create?',
    answer:
      'Three: Square (1:1) for posts and avatars, Mobile (9:16) for stories and phone screens, and Widescreen (16:9) for banners, slides and video.',
  },
  {
    question: 'Is there a free trial?',
    answer: freeTrial(prices),
  },
  {
    question: 'What do the packages cost?',
    answer: `${packages.join(', ')}. The bigger the package, the less each token costs. There is no subscription.`,
  },
  {
    question: 'How do I pay?',
    answer:
      'By card, on our payment provider’s secure checkout page: your card details never reach our servers. The tokens are added to your balance as soon as the payment goes through.',
  },
  {
    question: 'Why do I need to verify my email?',
    answer:
      'Most tools and all purchases need a verified address, which keeps accounts safe and lets us reach you about your payments. We send the link when you sign up; you can send it again from User Settings.',
  },
  {
    question: 'What happens if a tool fails?',
    answer: whenToolsFail(supportEmail),
  },
  {
    question: 'Which images can I upload?',
    answer: whichImages(),
  },
];
