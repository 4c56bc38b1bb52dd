import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClientCredentialsProvider, signingAlgorithm } from './client-credentials.js';
import { createMemoryOAuthStore } from './oauth-store.js';

// PKCS#8 PEM, as a key file holds it.
const rsaKey = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
const ecKey = (namedCurve: string) =>
  generateKeyPairSync('ec', {
    namedCurve,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
const edKey = () =>
  generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;

describe('signingAlgorithm', () => {
  it('signs with the algorithm the key is for: RS256 for RSA, ES256/ES384/ES512 by EC curve', () => {
    expect(signingAlgorithm(rsaKey())).toBe('RS256');
    expect(signingAlgorithm(ecKey('P-256'))).toBe('ES256');
    expect(signingAlgorithm(ecKey('P-384'))).toBe('ES384');
    expect(signingAlgorithm(ecKey('P-521'))).toBe('ES512');
  });

  it('says in one sentence which key it cannot sign with', () => {
    expect(() => signingAlgorithm(edKey())).toThrow(
      "The client's private key is ed25519; it must be RSA or EC on P-256, P-384 or P-521.",
    );
    expect(() => signingAlgorithm('not a key')).toThrow("The client's private key is not a PEM private key.");
  });
});

describe('createClientCredentialsProvider', () => {
  it('signs its token requests with the private key instead of sending a secret', async () => {
    const provider = createClientCredentialsProvider({
      store: createMemoryOAuthStore(),
      clientId: 'svc',
      privateKey: async () => ecKey('P-256'),
    });
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe('private_key_jwt');
    expect(await provider.clientInformation()).toEqual({ client_id: 'svc' });
    const params = new URLSearchParams();
    await provider.addClientAuthentication?.(new Headers(), params, 'https://auth.example/token');
    expect(params.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    const [header, claims] = (params.get('client_assertion') ?? '').split('.').slice(0, 2);
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({ alg: 'ES256' });
    expect(JSON.parse(Buffer.from(claims ?? '', 'base64url').toString())).toMatchObject({
      iss: 'svc',
      sub: 'svc',
      aud: 'https://auth.example/token',
    });
  });

  it('refuses a client with both a secret and a key, or neither', () => {
    const store = createMemoryOAuthStore();
    const both = { store, clientId: 'svc', clientSecret: 's', privateKey: 'k' };
    expect(() => createClientCredentialsProvider(both)).toThrow('one of a secret or a private key');
    expect(() => createClientCredentialsProvider({ store, clientId: 'svc' })).toThrow(
      'one of a secret or a private key',
    );
  });
});
