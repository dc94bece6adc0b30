/**
 * Run by test/unit/native-memory.test.ts in a process of its own (with
 * `--expose-gc`): fills about 120 MB with 1 KB buffers (each one a malloc),
 * frees all but every 64th, and prints the resident size in MB while they
 * are held, after the collection freed them, and after `malloc_trim`.
 */
import { glibcMalloc } from "../../src/native-memory.js";

const malloc = glibcMalloc();
if (!malloc) throw new Error("no glibc allocator here");
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const mb = (): number => Math.round(process.memoryUsage.rss() / (1024 * 1024));

let buffers: Buffer[] = [];
for (let i = 0; i < 120 * 1024; i++) buffers.push(Buffer.allocUnsafeSlow(1024).fill(i & 255));
const held = mb();
const kept = buffers.filter((_, i) => i % 64 === 0);
buffers = [];
gc();
await new Promise((resolve) => setTimeout(resolve, 200)); // V8 frees backing stores after the collection
gc();
const afterFree = mb();
await malloc.trim();
const afterTrim = mb();
process.stdout.write(JSON.stringify({ held, afterFree, afterTrim, kept: kept.length }));
