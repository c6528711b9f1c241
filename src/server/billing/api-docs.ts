// The OpenAPI operation of GET /api/packages (declared on its route in routes.ts with describeRoute;
// decision 067). Buying needs the website's session and is not part of the public API.
import { json } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

export const LIST_PACKAGES_OPERATION: OperationDoc = {
  operationId: 'listPackages',
  tag: 'Server',
  summary: 'The token packages',
  description: 'The token packages on sale (bought on the site, signed in).',
  access: 'public',
  responses: { '200': { description: 'The packages.', content: json('PackageList') } },
};
