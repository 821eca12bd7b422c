/**
 * Sign-in: Google through OpenID Connect when OIDC_CLIENT_ID is set, else the embedded identity
 * provider mounted on this app. One client (OidcClient) talks to either; the plugin chooses and
 * wires it, and hands the accounts module verified claims, never a user.
 */
export { default as identityPlugin } from './plugin.ts';
export { OidcClient, type OidcClaims } from './oidc-client.ts';
