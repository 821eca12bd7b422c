/**
 * Reads the top-level boxes of an MP4 file to tell whether its index (moov) comes before the
 * media data (mdat), which lets a browser start playing before the whole file has arrived.
 */
import { open } from 'node:fs/promises';

export async function mp4MoovFirst(file: string): Promise<boolean | null> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    for (let i = 0; i < 10_000 && offset + 8 <= size; i++) {
      const { bytesRead } = await fh.read(header, 0, 16, offset);
      if (bytesRead < 8) return null;
      let boxSize = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      if (type === 'moov') return true;
      if (type === 'mdat') return false;
      if (boxSize === 1) {
        if (bytesRead < 16) return null;
        boxSize = Number(header.readBigUInt64BE(8));
      } else if (boxSize === 0) {
        return null;
      }
      if (boxSize < 8) return null;
      offset += boxSize;
    }
    return null;
  } finally {
    await fh.close();
  }
}
