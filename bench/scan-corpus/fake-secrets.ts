// Random values in the shapes of real credentials. None of them was ever issued by anyone: they are drawn from
// the corpus generator, so they only look right to a pattern.
import { ALNUM, BASE64, BASE64URL, DIGITS, HEX, UPPER, type Rng } from './prng.js';
import { chunk } from './sample.js';

export const fake = {
  awsAccessKeyId: (r: Rng): string => `${r.pick(['AKIA', 'ASIA'])}${r.chars(UPPER + '234567', 16)}`,
  awsSecretKey: (r: Rng): string => r.chars(ALNUM + '/+', 40),
  githubPat: (r: Rng): string => `ghp_${r.chars(ALNUM, 36)}`,
  githubFineGrained: (r: Rng): string => `github_pat_${r.chars(ALNUM, 22)}_${r.chars(ALNUM, 59)}`,
  githubOauth: (r: Rng): string => `gho_${r.chars(ALNUM, 36)}`,
  slackBot: (r: Rng): string => `xoxb-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 13)}-${r.chars(ALNUM, 24)}`,
  slackUser: (r: Rng): string => `xoxp-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 13)}-${r.chars(HEX, 32)}`,
  slackWebhook: (r: Rng): string =>
    `https://hooks.slack.com/services/T${r.chars(UPPER + DIGITS, 8)}/B${r.chars(UPPER + DIGITS, 10)}/${r.chars(ALNUM, 24)}`,
  openai: (r: Rng): string => `sk-proj-${r.chars(BASE64URL, 74)}T3BlbkFJ${r.chars(BASE64URL, 74)}`,
  openaiLegacy: (r: Rng): string => `sk-${r.chars(ALNUM, 20)}T3BlbkFJ${r.chars(ALNUM, 20)}`,
  anthropic: (r: Rng): string => `sk-ant-api03-${r.chars(BASE64URL, 93)}AA`,
  stripeLive: (r: Rng): string => `sk_live_${r.chars(ALNUM, 99)}`,
  stripeRestricted: (r: Rng): string => `rk_live_${r.chars(ALNUM, 99)}`,
  googleApiKey: (r: Rng): string => `AIza${r.chars(ALNUM + '-_', 35)}`,
  npmToken: (r: Rng): string => `npm_${r.chars(ALNUM, 36)}`,
  /** A PEM block of random base64 with the header of the given key type. */
  pem: (r: Rng, type: 'RSA PRIVATE KEY' | 'EC PRIVATE KEY' | 'PRIVATE KEY' | 'OPENSSH PRIVATE KEY'): string => {
    const length = type === 'EC PRIVATE KEY' ? 160 : type === 'OPENSSH PRIVATE KEY' ? 1600 : 1588;
    const prefix =
      type === 'OPENSSH PRIVATE KEY'
        ? 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn'
        : type === 'RSA PRIVATE KEY'
          ? 'MIIEpAIBAAKCAQEA'
          : type === 'EC PRIVATE KEY'
            ? 'MHcCAQEEI'
            : 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
    const body = prefix + r.chars(BASE64, length - prefix.length);
    const width = type === 'OPENSSH PRIVATE KEY' ? 70 : 64;
    return `-----BEGIN ${type}-----\n${chunk(body, width).join('\n')}${r.chance(0.5) ? '=' : ''}\n-----END ${type}-----\n`;
  },
};
