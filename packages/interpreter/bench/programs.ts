/**
 * Benchmark inputs: a model-style NeuroScript command block and a JavaScript
 * program of similar shape, each grown to a target size in bytes.
 */

const NS_CHUNK = (index: number): string => `  # step ${index}: gather and report
  set files_${index} = ["README.md", "src/index.ts", "package.json"]
  set meta_${index} = {"count": len(files_${index}), "ok": true, "scores": [1, 2.5, 3], "nested": {"a": [ [1, 2], [3] ]}}
  for each f in files_${index}
    set upper = tool.str.ToUpper(f)
    if upper != "" and meta_${index}["ok"] == true
      whisper self, "looked at " + upper
    else
      emit "skipped " + f
    endif
  endfor
  set note_${index} = [[File {{f}} has {{len(files_${index})}} siblings.]]
  emit "total: " + (meta_${index}["count"] * 2 - 1) % 7
`;

const JS_CHUNK = (index: number): string => `  // step ${index}: gather and report
  let files_${index} = ["README.md", "src/index.ts", "package.json"];
  let meta_${index} = {"count": files_${index}.length, "ok": true, "scores": [1, 2.5, 3], "nested": {"a": [[1, 2], [3]]}};
  for (const f of files_${index}) {
    let upper = tool.str.ToUpper(f);
    if (upper !== "" && meta_${index}["ok"] === true) {
      whisper(self, "looked at " + upper);
    } else {
      emit("skipped " + f);
    }
  }
  let note_${index} = \`File \${f} has \${files_${index}.length} siblings.\`;
  emit("total: " + (meta_${index}["count"] * 2 - 1) % 7);
`;

function grow(open: string, close: string, chunk: (index: number) => string, bytes: number): string {
  let body = '';
  let index = 0;
  while (Buffer.byteLength(open + body + close) < bytes) {
    body += chunk(index);
    index += 1;
  }
  // Trim back to the last whole statement line at or under the target.
  let lines = body.split('\n');
  while (lines.length > 2 && Buffer.byteLength(open + lines.join('\n') + close) > bytes) lines = lines.slice(0, -1);
  return open + fixBlocks(lines.join('\n')) + close;
}

/** Closes any block left open by trimming, so the program stays valid. */
function fixBlocks(body: string): string {
  const opens = (body.match(/^\s*(for each|if)\b/gm) ?? []).length;
  const closes = (body.match(/^\s*(endfor|endif)\b/gm) ?? []).length;
  if (opens === closes) return `${body}\n`;
  const cut = body.lastIndexOf('\n  for each');
  return `${body.slice(0, cut)}\n`;
}

function growJs(bytes: number): string {
  let body = '';
  let index = 0;
  while (Buffer.byteLength(`function main() {\n${body}}\n`) < bytes) {
    body += JS_CHUNK(index);
    index += 1;
  }
  return `function main() {\n${body}}\n`;
}

/** A NeuroScript ACTIONS block of about `bytes` bytes. */
export function neuroScriptProgram(bytes: number): string {
  return grow('command\n', 'endcommand\n', NS_CHUNK, bytes);
}

/** A JavaScript program of about `bytes` bytes with the same shape. */
export function javaScriptProgram(bytes: number): string {
  return growJs(bytes);
}
