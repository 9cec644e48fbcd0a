import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { inflateRaw } from '@skill-registry/skill-package/byte-reader';

/** The deflate data in pieces of `size` bytes, as a file read would give it. */
function piecesOf(data: Buffer, size: number): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < data.length; at += size) pieces.push(data.subarray(at, at + size));
  return Readable.from(pieces);
}

async function inflateAll(input: AsyncIterable<Buffer>): Promise<{ pieces: Buffer[]; consumed: number }> {
  const pieces: Buffer[] = [];
  const inflating = inflateRaw(input);
  for (;;) {
    const step = await inflating.next();
    if (step.done === true) return { pieces, consumed: step.value.consumed };
    pieces.push(step.value);
  }
}

describe('inflating an entry', () => {
  it("yields the data in pieces of up to 64 KiB, not zlib's default 16 KiB, and counts the input it took", async () => {
    // Incompressible bytes and repeated text: stored blocks and real deflate.
    const data = Buffer.concat([randomBytes(700 * 1024), Buffer.from('a line of text that repeats\n'.repeat(40_000))]);
    const deflated = deflateRawSync(data);
    const { pieces, consumed } = await inflateAll(piecesOf(deflated, 64 * 1024));
    assert.deepEqual(Buffer.concat(pieces), data);
    assert.equal(consumed, deflated.length);
    assert.ok(pieces.every((piece) => piece.length <= 64 * 1024));
    // Each piece is a round trip to the thread pool: 16 KiB ones would be four times as many.
    assert.ok(pieces.length <= 2 * Math.ceil(data.length / (64 * 1024)), `${pieces.length} pieces`);
  });

  it('refuses a deflate stream that has not ended when its input does', async () => {
    const deflated = deflateRawSync(randomBytes(300 * 1024));
    await assert.rejects(inflateAll(piecesOf(deflated.subarray(0, deflated.length - 100), 16 * 1024)), /unexpected end of file/i);
  });

  it('returns how much input the stream used when bytes follow its end', async () => {
    const deflated = deflateRawSync(Buffer.from('hello'));
    const { pieces, consumed } = await inflateAll(piecesOf(Buffer.concat([deflated, Buffer.from('trailing')]), 4));
    assert.equal(Buffer.concat(pieces).toString(), 'hello');
    assert.equal(consumed, deflated.length);
  });
});
