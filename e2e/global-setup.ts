import { makeTestMedia } from '../scripts/make-test-media.ts';

export default async function globalSetup() {
  await makeTestMedia();
}
