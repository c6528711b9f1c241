// A local OpenID Connect provider standing in for Google (oauth2-mock-server on 127.0.0.1).
// `nextUser` sets who signs in next: the claims go into the ID token and the userinfo answer.
import { OAuth2Server } from 'oauth2-mock-server';

export type OidcUser = { sub: string; email: string; emailVerified: boolean; name: string };

export async function startOidcServer() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let current: OidcUser = { sub: 'google-user-1', email: 'someone@gmail.test', emailVerified: true, name: 'Someone' };
  const claims = () => ({
    sub: current.sub,
    email: current.email,
    email_verified: current.emailVerified,
    name: current.name,
  });
  server.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, claims());
  });
  server.service.on('beforeUserinfo', (response) => {
    response.body = claims();
  });
  const issuer = server.issuer.url as string;
  const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  return {
    issuer,
    discoveryUrl,
    /** The settings that make a server sign in with Google through this provider. */
    serverEnv: {
      GOOGLE_CLIENT_ID: 'pp-test-client',
      GOOGLE_CLIENT_SECRET: 'pp-test-secret',
      GOOGLE_DISCOVERY_URL: discoveryUrl,
    },
    nextUser(user: OidcUser) {
      current = user;
    },
    stop: () => server.stop(),
  };
}
