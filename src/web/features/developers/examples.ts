// The guide's code, as text: the first call with curl and with fetch, and a webhook's verification.
// `origin` is this site's address (the page shows the one it is served from).

export const curlExample = (origin: string, path: string) => `curl ${origin}${path} \\
  -H "Authorization: Bearer $PP_API_KEY" \\
  -H "Accept: image/png" \\
  -H "Prefer: wait=60" \\
  -F "image=@photo.jpg" \\
  -o no-background.png`;

export const fetchExample = (origin: string, path: string) => `import { readFile } from 'node:fs/promises';

const image = (await readFile('photo.jpg')).toString('base64');
const response = await fetch('${origin}${path}', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.PP_API_KEY}\`,
    'Content-Type': 'application/json',
    'Idempotency-Key': crypto.randomUUID(),
    Prefer: 'wait=60',
  },
  body: JSON.stringify({ image }),
});
const answer = await response.json();
if (response.status === 200) {
  console.log(answer.output, 'tokens left:', answer.balance);
} else if (response.status === 202) {
  console.log('still running: GET /api/jobs/' + answer.jobId);
} else {
  throw new Error(\`\${response.status}: \${answer.error}\`);
}`;

export const webhookExample = `import { Webhook } from 'standardwebhooks';

// Your secret from User Settings > Developer (it begins with "whsec_").
const webhook = new Webhook(process.env.PP_WEBHOOK_SECRET!);

export async function handle(request: Request): Promise<Response> {
  const body = await request.text(); // the raw body: verify before parsing
  let job;
  try {
    job = webhook.verify(body, {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    }) as { id: string; status: 'succeeded' | 'failed'; output: string[] | null };
  } catch {
    return new Response('Invalid signature', { status: 400 });
  }
  // The same webhook-id may arrive twice (a retry): handle each id once.
  console.log(job.id, job.status, job.output);
  return new Response(null, { status: 204 });
}`;

/** A folder of photos as one batch: made, fed an image at a time, followed, downloaded as a zip. */
export const batchExample = (origin: string) => `API=${origin}/api
AUTH="Authorization: Bearer $PP_API_KEY"
BATCH=$(curl -s $API/batches -H "$AUTH" -H "Content-Type: application/json" \\
  -d '{"tool":"background-remover","size":3}' | jq -r .id)
i=0
for photo in IMG_0412.jpg IMG_0413.jpg IMG_0414.jpg; do
  curl -s $API/batches/$BATCH/images -H "$AUTH" \\
    -F "image=@$photo" -F "item=$i" -F "name=$photo"
  i=$((i + 1))
done
curl -s $API/batches/$BATCH -H "$AUTH" | jq .counts   # again until waiting and running are 0
curl -s $API/batches/$BATCH/download -H "$AUTH" -o results.zip`;

/** A shop listing's image in one call: the cut-out on white, a 2000 px square with a soft shadow, as JPEG. */
export const resultFileExample = (origin: string) => `# A shop listing: white, 2000 px square, soft shadow, JPEG
curl -s ${origin}/api/remove-background \\
  -H "Authorization: Bearer $PP_API_KEY" -H "Accept: image/jpeg" \\
  -F "image=@sneaker.jpg" -F "outputFormat=jpeg" -F "outputQuality=90" \\
  -F "background=#ffffff" -F "size=2000" -F "shadow=true" -o sneaker-listing.jpg`;
