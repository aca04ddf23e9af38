/**
 * The first-contact challenge (docs/widget.md "Proof of work"): find a decimal counter such that
 * SHA-256(nonce + counter) starts with `difficulty` zero bits. crypto.subtle is asynchronous per hash,
 * far too slow for a few hundred thousand tries, so this is a small SHA-256 of one 64-byte block (the
 * nonce and counter are always shorter), run in slices so the page stays responsive.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0: readonly number[] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const W = new Uint32Array(64);

/** The first 32 bits of SHA-256 of a message that fits one block, given as that block, already padded. */
function firstWordOfBlock(block: Uint8Array): number {
  for (let i = 0; i < 16; i++) W[i] = (block[i * 4]! << 24) | (block[i * 4 + 1]! << 16) | (block[i * 4 + 2]! << 8) | block[i * 4 + 3]!;
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]!;
    const y = W[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H0[0]!;
  let b = H0[1]!;
  let c = H0[2]!;
  let d = H0[3]!;
  let e = H0[4]!;
  let f = H0[5]!;
  let g = H0[6]!;
  let h = H0[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  return (H0[0]! + a) >>> 0;
}

/** Pads `length` message bytes already in the block (SHA-256: 0x80, zeros, the length in bits). */
function pad(block: Uint8Array, length: number): void {
  block.fill(0, length);
  block[length] = 0x80;
  block[62] = (length * 8) >>> 8;
  block[63] = (length * 8) & 0xff;
}

/** True when the first `bits` bits (at most 32) of the word are zero. */
function startsWithZeros(word: number, bits: number): boolean {
  return bits <= 0 || (bits >= 32 ? word === 0 : word >>> (32 - bits) === 0);
}

/** The challenge token the server sent: `<nonce>.<difficulty>.<expires>.<signature>`. */
function parseChallenge(token: string): { nonce: string; difficulty: number } | undefined {
  const [nonce, difficulty] = token.split('.');
  const bits = Number(difficulty);
  if (!nonce || !/^[A-Za-z0-9_-]{16,43}$/.test(nonce) || !Number.isInteger(bits) || bits < 0 || bits > 32) return undefined;
  return { nonce, difficulty: bits };
}

const SLICE_MS = 25;
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Finds the counter for a challenge token; undefined if the token is not one (or `shouldStop` says so). */
export async function solveChallenge(token: string, shouldStop: () => boolean = () => false): Promise<string | undefined> {
  const challenge = parseChallenge(token);
  if (!challenge) return undefined;
  const { nonce, difficulty } = challenge;
  // nonce + counter digits, padded, in one block; the counter is counted up in place as ASCII digits.
  const block = new Uint8Array(64);
  for (let i = 0; i < nonce.length; i++) block[i] = nonce.charCodeAt(i);
  let length = nonce.length + 1;
  block[nonce.length] = 0x30;
  pad(block, length);
  const next = () => {
    let i = length - 1;
    while (i >= nonce.length && block[i] === 0x39) block[i--] = 0x30;
    if (i >= nonce.length) {
      block[i]! += 1;
      return;
    }
    // 9…9 became 0…0: one more digit, a leading 1.
    block[nonce.length] = 0x31;
    block[length] = 0x30;
    length += 1;
    pad(block, length);
  };
  const counter = () => String.fromCharCode(...block.subarray(nonce.length, length));
  for (;;) {
    const sliceEnd = Date.now() + SLICE_MS;
    do {
      for (let i = 0; i < 4096; i++) {
        if (startsWithZeros(firstWordOfBlock(block), difficulty)) return counter();
        next();
      }
    } while (Date.now() < sliceEnd);
    await yieldToPage();
    if (shouldStop()) return undefined;
  }
}
