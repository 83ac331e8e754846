/**
 * Sessions for the viewer's tests and screenshot, made the real way: a
 * scripted model through `createAskLoop`, the real sandbox and tools, into a
 * real SQLite file. The plugin also registers an OpenAI-compatible provider
 * configured with a fake key, to prove the key never reaches what the
 * viewer shows.
 */
import { createAskLoop, createSqliteTranscriptStore, definePlugin, type AskLoop, type SqliteTranscriptStore } from '@askloop/controller';
import { createOpenAICompatibleProvider, createScriptedProvider, type ScriptedReply, type ScriptedTurn } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';

/** A fake API key: in the provider settings and the environment, never in a page. */
export const FAKE_KEY = 'sk-viewerTEST-0123456789abcdef-NOT-A-REAL-KEY';

const envelope = (program: string, before = '') =>
  [before, '<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', program, '<<<NSENV:V4:END>>>', ''].join('\n');

const SENTENCE = 'the quick brown fox jumps over the lazy dog';

/** The finished session: counts words (tool calls), fails a check and repairs, then answers DONE. */
const WORDS: readonly ScriptedReply[] = [
  {
    text: envelope(
      `command
  set words = tool.str.SplitWords("${SENTENCE}")
  set loud = tool.str.ToUpper("${SENTENCE}")
  whisper "plan", "counted " + len(words) + " words; next: the longest"
  emit "The sentence has " + len(words) + " words."
  emit "Shouted: " + loud
endcommand`,
      "I'll start by counting the words.\n",
    ),
    usage: { inputTokens: 1840, outputTokens: 96 },
    delayMs: 40,
  },
  {
    text: envelope(`command
  set words = tool.str.SplitWords("${SENTENCE}")
  emit tool.str.Longest(words)
endcommand`),
    usage: { inputTokens: 2110, outputTokens: 41 },
    delayMs: 25,
  },
  {
    text: envelope(`command
  set words = tool.str.SplitWords("${SENTENCE}")
  set longest = ""
  for each word in words
    if len(word) > len(longest)
      set longest = word
    endif
  endfor
  set total = tool.math.Add(len(words), 0)
  emit "<<<LOOP:DONE>>> " + total + " words; the longest is " + longest
endcommand`),
    usage: { inputTokens: 2380, outputTokens: 118 },
    delayMs: 60,
  },
];

/**
 * The session left running: one turn now, the second (DONE) when the test
 * steps it. Chosen from the envelope sent (the first turn's OUTPUT is in the
 * second's), because each `step` may start the script afresh.
 */
const LIVE = (turn: ScriptedTurn): ScriptedReply =>
  turn.prompt.includes('step one: hello live view')
    ? { text: envelope(`command\n  emit "<<<LOOP:DONE>>> " + tool.str.Concat(["live ", "finished"])\nendcommand`), usage: { inputTokens: 1010, outputTokens: 34 } }
    : { text: envelope(`command\n  emit "step one: " + tool.str.ToLower("HELLO LIVE VIEW")\nendcommand`), usage: { inputTokens: 900, outputTokens: 30 } };

/** Markup and script in every place a model controls: it must reach the page as text. */
export const HOSTILE_EMIT = "<img src=x onerror='window.pwned=1'><b>not bold</b>";
const HOSTILE: readonly ScriptedReply[] = [
  envelope(`command\n  emit "${HOSTILE_EMIT}"\n  emit "<<<LOOP:DONE>>> <script>window.pwned=2</script>"\nendcommand`, '<script>window.pwned=3</script>\n'),
];

/** A result of 20,000 characters without a space: the page must wrap it, not grow sideways. */
const SPRAWLING: readonly ScriptedReply[] = [envelope(`command\n  emit "<<<LOOP:DONE>>> " + "y" * 20000\nendcommand`)];

/** The populated store and the loop that can still step the running session. */
export interface ViewerFixture {
  readonly store: SqliteTranscriptStore;
  readonly loop: AskLoop;
  /** The finished (DONE, three turns) session. */
  readonly done: string;
  /** The session with one turn, still running. */
  readonly running: string;
  /** A one-turn session whose reply, emits and task are HTML and script. */
  readonly hostile: string;
  /** A one-turn session whose task (5,000 characters) and result (20,000) have no space to wrap at. */
  readonly sprawling: string;
  close(): Promise<void>;
}

/** Runs the sessions into the SQLite file `file`. */
export async function createViewerFixture(file: string): Promise<ViewerFixture> {
  const store = createSqliteTranscriptStore(file);
  const plugin = definePlugin({
    name: 'viewer-test',
    specificationVersion: 'v1',
    providers: {
      scripted: createScriptedProvider({ models: { words: WORDS, live: LIVE, hostile: HOSTILE, sprawling: SPRAWLING } }),
      // Configured with the fake key and never called: the key must still appear nowhere.
      openai: createOpenAICompatibleProvider({ name: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKey: FAKE_KEY }),
    },
    toolPacks: createSafeToolPacks(),
    agents: {
      wordsmith: { name: 'wordsmith', model: 'scripted:words', ceilings: { maxTurns: 6 }, repair: 1 },
      live: { name: 'live', model: 'scripted:live', ceilings: { maxTurns: 4 } },
      hostile: { name: 'hostile', model: 'scripted:hostile', ceilings: { maxTurns: 2 } },
      sprawling: { name: 'sprawling', model: 'scripted:sprawling', ceilings: { maxTurns: 2 } },
    },
  });
  const loop = createAskLoop({ plugins: [plugin], store });
  const done = (await loop.run({ agent: 'wordsmith', task: 'Count the words of the sentence and find the longest.' })).sid;
  const hostile = (await loop.run({ agent: 'hostile', task: '<b>bold?</b><script>window.pwned=4</script>' })).sid;
  const sprawling = (await loop.run({ agent: 'sprawling', task: 'z'.repeat(5000) })).sid;
  const running = await loop.create({ agent: 'live', task: 'Say hello, then finish (the live view test steps this).' });
  await loop.step(running);
  return {
    store,
    loop,
    done,
    running,
    hostile,
    sprawling,
    async close() {
      await loop.close();
      await store.close();
    },
  };
}
