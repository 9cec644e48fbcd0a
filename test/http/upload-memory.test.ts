/**
 * The buffers an upload leaves behind are freed while it is under way (src/lib/young-garbage.ts): a collection of the
 * young generation every COLLECT_EVERY_BYTES of body and of package read, instead of once V8 reacts to tens of MiB
 * of them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { COLLECT_EVERY_BYTES, noteBufferedBytes, notingBytes, youngCollections } from '../../src/lib/young-garbage.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { authHeaders, createKey, createSkill, registerUser } from '../helpers/client.js';

const MIB = 1024 * 1024;

/** Turns of the event loop until `check` holds (a background thread finishes freeing what a collection found). */
async function turnsUntil(check: () => boolean, turns = 100_000): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (check()) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return check();
}

/** Buffers outside the heap that nothing refers to, as a socket's reads leave behind: `mib` MiB of them. */
function leaveGarbage(mib: number): void {
  for (let i = 0; i < mib * 16; i++) Buffer.allocUnsafeSlow(64 * 1024).fill(i);
}

describe('buffers an upload leaves behind', () => {
  it('collects once COLLECT_EVERY_BYTES have been noted, over every caller together, and not before', () => {
    noteBufferedBytes(COLLECT_EVERY_BYTES); // from a known count: none carried over from before
    const start = youngCollections();
    noteBufferedBytes(COLLECT_EVERY_BYTES / 2);
    noteBufferedBytes(COLLECT_EVERY_BYTES / 2 - 1);
    assert.equal(youngCollections(), start);
    noteBufferedBytes(1);
    assert.equal(youngCollections(), start + 1);
    noteBufferedBytes(3 * COLLECT_EVERY_BYTES);
    assert.equal(youngCollections(), start + 2, 'one collection for many bytes noted at once');
  });

  it('frees buffers nothing refers to any more, which stay allocated without it', async () => {
    const garbage = () => process.memoryUsage().arrayBuffers;
    noteBufferedBytes(COLLECT_EVERY_BYTES);
    assert.ok(await turnsUntil(() => garbage() < 4 * MIB), 'starts from little garbage');
    leaveGarbage(16);
    // Without a collection the 16 MiB stay: V8 would collect them only once more build up.
    await turnsUntil(() => false, 100);
    assert.ok(garbage() >= 16 * MIB, `${garbage()} bytes of buffers before the collection`);
    noteBufferedBytes(COLLECT_EVERY_BYTES);
    assert.ok(await turnsUntil(() => garbage() < 4 * MIB), `${garbage()} bytes of buffers left after the collection`);
  });

  it('notes the bytes of a stream as they pass, which arrive unchanged; an error and a destroy pass through', async () => {
    noteBufferedBytes(COLLECT_EVERY_BYTES);
    const start = youngCollections();
    const chunks = Array.from({ length: (3 * COLLECT_EVERY_BYTES) / MIB }, () => randomBytes(MIB));
    const received: Buffer[] = [];
    await pipeline(notingBytes(Readable.from(chunks)), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) received.push(chunk);
    });
    assert.deepEqual(Buffer.concat(received), Buffer.concat(chunks));
    assert.equal(youngCollections(), start + 3);

    const failing = new Readable({ read() {} });
    const noted = notingBytes(failing);
    const failure = new Error('the body broke off');
    failing.destroy(failure);
    await assert.rejects(
      pipeline(noted, async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) assert.ok(chunk.length > 0);
      }),
      (error: unknown) => error === failure,
    );

    const source = new Readable({ read() {} });
    notingBytes(source).destroy();
    assert.ok(await turnsUntil(() => source.destroyed), 'destroying the noted stream destroys its source');
  });
});

for (const backend of backends()) {
  describe(`an upload's buffers are freed while it is under way [${backend.name}]`, () => {
    let t: TestApp;
    let key: { key: string };
    let slug: string;
    before(async () => {
      t = await startApp(backend);
      const user = await registerUser(t);
      key = await createKey(t, user.session);
      slug = (await createSkill(t, key)).slug;
    });
    after(() => t.close());

    it('collects for the body as it arrives and again for the package as it is read', async () => {
      const archive = await zip([
        { path: 'SKILL.md', content: skillMd() },
        { path: 'assets/data.bin', content: randomBytes(12 * MIB) },
      ]);
      const form = multipart({ version: '1.0.0' }, { content: archive });
      const start = youngCollections();
      const res = await t.request({
        method: 'POST',
        url: `/v1/skills/${slug}/versions`,
        headers: { ...authHeaders(key), ...form.headers },
        payload: form.payload,
      });
      assert.equal(res.statusCode, 201, res.body);
      // Inspection reads the whole archive in pieces of 64 KiB, a collection every COLLECT_EVERY_BYTES of them; the body
      // makes at least one more (an injected request's body arrives in one piece, a socket's in many).
      const collections = youngCollections() - start;
      assert.ok(
        collections >= Math.floor(archive.length / COLLECT_EVERY_BYTES) + 1,
        `${collections} collections for ${archive.length} bytes`,
      );
    });
  });
}
