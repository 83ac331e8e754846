import { createInterpreter, closeDefaultPool } from './src/index.ts';
const src = `command
  set i = 0
  while i < 20000
    set i = i + 1
  endwhile
  set s = "😀"
  set k = 0
  while k < 18
    set s = s + s
    set k = k + 1
  endwhile
  set j = 0
  while j < 5000
    set n = len(s)
    set j = j + 1
  endwhile
  emit n
endcommand`;
for (let k = 0; k < 6; k++) {
  const t = performance.now();
  const r = await createInterpreter().run(src, { mode: 'agent', limits: { wallMs: 100 } });
  console.log(Math.round(performance.now() - t), r.error?.code, r.error?.line, r.error?.column, r.error?.message);
}
await closeDefaultPool();
