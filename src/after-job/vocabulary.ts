// What is not a claim about the code: the languages' own words (keywords and built-ins, for the languages the code is
// written in), the shell's and the common tools' that docs use to install and run things, and placeholders a reader
// is meant to replace. Kept as data, small: a word missing here is at worst reported for a person to look at.

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((word) => word !== ''))

interface Language {
  /** File extensions of its code. */
  readonly extensions: readonly string[]
  /** Fence info strings that name it. */
  readonly fences: readonly string[]
  /** Reserved words, literals and built-in names: never a claim, alone or as a path's root. */
  readonly builtins: ReadonlySet<string>
  /** Members of its standard types (`.then`, `.length`): not a claim as a path's member. */
  readonly members: ReadonlySet<string>
}

const LANGUAGES: Readonly<Record<string, Language>> = {
  javascript: {
    extensions: ['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte', 'astro'],
    fences: ['js', 'javascript', 'jsx', 'ts', 'typescript', 'tsx', 'mjs', 'cjs', 'node', 'vue', 'svelte', 'astro'],
    builtins: words(`
      await break case catch class const continue debugger default delete do else enum export extends false finally
      for function if implements import in instanceof interface let new null of package private protected public
      return static super switch this throw true try typeof var void while with yield async from as get set type
      undefined NaN Infinity readonly keyof declare namespace abstract any unknown never string number boolean object
      symbol bigint satisfies is infer require module exports __dirname __filename globalThis window document
      navigator console process JSON Math Object Array String Number Boolean Symbol BigInt Promise Date RegExp Error
      TypeError RangeError SyntaxError Map Set WeakMap WeakSet Proxy Reflect Intl Buffer URL URLSearchParams
      TextEncoder TextDecoder fetch Request Response Headers FormData Blob File ReadableStream WritableStream
      AbortController AbortSignal setTimeout setInterval clearTimeout clearInterval setImmediate queueMicrotask
      structuredClone atob btoa encodeURIComponent decodeURIComponent parseInt parseFloat isNaN Event EventTarget
      WebSocket crypto performance localStorage sessionStorage Uint8Array ArrayBuffer Record Partial Pick Omit
      Readonly ReturnType Awaited fs path os http https http2 net tls dns url util stream events child_process zlib
      readline assert buffer cluster worker_threads timers querystring vm perf_hooks React useState useEffect
      useRef useMemo useCallback Fragment div span img button input form label className onClick onChange props
      children key ref style Deno Bun Function`),
    members: words(`
      then catch finally length push pop shift unshift map filter reduce forEach find findIndex some every includes
      indexOf join split slice splice concat sort reverse keys values entries toString valueOf toJSON json text log
      error warn info trim replace replaceAll startsWith endsWith toUpperCase toLowerCase padStart match test exec
      get set has delete add clear size on once off emit pipe write end close resolve reject all allSettled race
      apply call bind prototype constructor default message stack name assign freeze parse stringify isArray from
      now env argv exit cwd stdout stderr stdin readFileSync writeFileSync readFile writeFile existsSync dirname
      basename extname createServer listen status body headers data current preventDefault target floor ceil round
      random max min abs pow sqrt append createReadStream createWriteStream setHeader getHeader writeHead statusCode
      randomBytes randomUUID createHash digest`)
  },
  python: {
    extensions: ['py', 'pyi'],
    fences: ['py', 'python', 'python3', 'py3', 'pycon', 'ipython'],
    builtins: words(`
      False None True and as assert async await break class continue def del elif else except finally for from
      global if import in is lambda nonlocal not or pass raise return try while with yield self cls match case print
      len range str int float bool list dict set tuple open type isinstance super object Exception ValueError
      KeyError TypeError enumerate zip map filter sorted sum min max abs any all input repr hasattr getattr setattr
      os sys json re time datetime math random pathlib asyncio typing logging subprocess __name__ __main__
      __init__`),
    members: words(`append extend items keys values get update pop format join split strip read write close`)
  },
  go: {
    extensions: ['go'],
    fences: ['go', 'golang'],
    builtins: words(`
      break case chan const continue default defer else fallthrough for func go goto if import interface map package
      range return select struct switch type var nil true false iota err append cap close complex copy delete len
      make new panic print println recover string int int64 float64 bool byte rune error any fmt os io http context
      time strings strconv errors json log sync bytes main`),
    members: words(`Println Printf Sprintf Errorf Error String Close Background Done`)
  },
  ruby: {
    extensions: ['rb', 'rake', 'gemspec'],
    fences: ['rb', 'ruby', 'irb', 'erb'],
    builtins: words(`
      alias and begin break case class def defined do else elsif end ensure false for if in module next nil not or
      redo rescue retry return self super then true undef unless until when while yield puts require
      require_relative attr_accessor attr_reader attr_writer private protected include extend raise new lambda proc`),
    members: words(`each map select new to_s to_h to_a each_with_index`)
  },
  rust: {
    extensions: ['rs'],
    fences: ['rs', 'rust'],
    builtins: words(`
      as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref
      return self Self static struct super trait true type unsafe use where while async await dyn Some None Ok Err
      Vec String Box Option Result println format vec std main`),
    members: words(`unwrap expect clone to_string iter collect into await`)
  },
  jvm: {
    extensions: ['java', 'kt', 'kts', 'scala', 'groovy'],
    fences: ['java', 'kotlin', 'kt', 'scala', 'groovy', 'gradle'],
    builtins: words(`
      abstract boolean break byte case catch char class const continue default do double else enum extends final
      finally float for if implements import instanceof int interface long native new package private protected
      public return short static super switch synchronized this throw throws try void volatile while null true false
      var val fun object override String System Integer List Map ArrayList HashMap Override main`),
    members: words(`out println toString equals hashCode size get put add build`)
  },
  csharp: {
    extensions: ['cs'],
    fences: ['cs', 'csharp', 'c#'],
    builtins: words(`
      abstract as base bool break case catch class const continue default do double else enum false finally for
      foreach if in int interface internal is namespace new null object out override private protected public
      readonly return static string struct switch this throw true try using var void while async await Console
      Task Main`),
    members: words(`WriteLine ToString Result`)
  },
  php: {
    extensions: ['php'],
    fences: ['php'],
    builtins: words(`
      abstract array as break case catch class const continue declare default do echo else elseif extends false
      final finally fn for foreach function global if implements include interface namespace new null private
      protected public require require_once return static switch this throw trait true try use var while`),
    members: words(``)
  },
  shell: {
    extensions: ['sh', 'bash', 'zsh', 'fish', 'ps1'],
    fences: ['sh', 'bash', 'shell', 'zsh', 'console', 'terminal', 'shell-session', 'sh-session', 'powershell'],
    builtins: words(`
      if then else elif fi for do done case esac while until function return exit export local readonly echo printf
      cd ls cat mkdir rm cp mv source set unset true false test read shift eval exec trap wait sleep kill chmod
      chown grep sed awk find xargs tee touch head tail sort uniq wc cut tr pwd which HOME PATH USER PWD SHELL
      TERM LANG TMPDIR EDITOR CI`),
    members: words(``)
  }
}

/** Programs docs run that are not the project's: package managers, runtimes, version control, the system's tools. */
export const OUTSIDE_TOOLS = words(`
  npm yarn pnpm bun node deno git curl wget docker docker-compose podman kubectl helm brew apt apt-get yum dnf apk
  pacman pip pip3 pipx python python3 poetry uv go cargo rustup rustc gem bundle bundler rake make cmake gcc java
  javac mvn gradle dotnet composer php ruby nvm fnm volta corepack gh aws gcloud az terraform jq openssl ssh scp
  rsync tar unzip zip gzip code open vim nano less more sudo su env time nohup systemctl service launchctl choco
  winget scoop sh bash zsh fish pwsh powershell cmd start xdg-open ln npx pnpx bunx perl lua heroku vercel netlify
  bower py`)

/** Environment variables the tools and platforms set or read themselves: npm's, GitHub Actions', the runner's. */
const OUTSIDE_VARIABLES = /^(?:npm_(?:config|package|lifecycle)_|GITHUB_|RUNNER_)/

/** The language a code file is written in, by its extension; undefined for any other file. */
export function languageOfPath(path: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase()
  if (extension === undefined) return undefined
  return Object.keys(LANGUAGES).find((name) => LANGUAGES[name]?.extensions.includes(extension))
}

/** The language a fence's info string names, or undefined. */
export function languageOfFence(info: string): string | undefined {
  return Object.keys(LANGUAGES).find((name) => LANGUAGES[name]?.fences.includes(info))
}

/** The built-in words of a set of languages: the code's, and the fence's. */
export interface Vocabulary {
  isBuiltin(word: string): boolean
  isMember(word: string): boolean
}

export function vocabularyOf(languages: Iterable<string>): Vocabulary {
  const chosen = [...new Set(['shell', ...languages])].flatMap((name) => LANGUAGES[name] ?? [])
  return {
    isBuiltin: (word) =>
      OUTSIDE_TOOLS.has(word) || OUTSIDE_VARIABLES.test(word) || chosen.some((language) => language.builtins.has(word)),
    isMember: (word) => chosen.some((language) => language.members.has(word) || language.builtins.has(word))
  }
}

// Placeholders: a name made of or starting with a word that marks it as the reader's own (`YOUR_API_KEY`, `myApp`,
// `my-app`, `someValue`, `example.com`), or the metasyntactic words of examples (`foo`, `bar`).
const PLACEHOLDER_WORDS = words(`
  my your our some example examples sample dummy placeholder foo bar baz qux quux corge grault garply waldo fred
  plugh xyzzy thud lorem ipsum changeme acme xxx xxxx yyy zzz todo tbd`)
const LEADING_WORDS = words(`my your our some example sample dummy placeholder`)
/** Words that, all capitals and nothing else, name a slot to fill (`OPTION_NAME`, `ENV_VAR`). */
const SLOT_WORDS = words(`option name value key var variable env thing item field param arg type id`)

/** The words of a name: split at `_`, `-`, `.` and each lower-to-upper case change, lower-cased. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-/]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
}

/** The word in the other cases code writes names in: `defaultSrc`, `default-src` and `default_src` are one name. */
export function caseSpellings(word: string): string[] {
  const parts = wordsOf(word)
  if (parts.length < 2 || parts.some((piece) => !/^[a-z0-9]+$/.test(piece))) return []
  const camel = parts.map((piece, index) => (index === 0 ? piece : piece.charAt(0).toUpperCase() + piece.slice(1)))
  return [camel.join(''), parts.join('-'), parts.join('_')].filter((spelling) => spelling !== word)
}

/** Whether the word is a placeholder the reader is meant to replace. */
export function isPlaceholder(word: string): boolean {
  const parts = wordsOf(word)
  // A prefix (`REACT_APP_`) stands for the names the reader makes with it.
  if (parts.length === 0 || /[_-]$/.test(word)) return true
  if (parts.every((part) => PLACEHOLDER_WORDS.has(part) || /^x+$/.test(part))) return true
  if (LEADING_WORDS.has(parts[0] ?? '')) return true
  if (/^[A-Z0-9_]+$/.test(word) && parts.every((part) => SLOT_WORDS.has(part))) return true
  return parts.includes('your') || parts.includes('my') || (parts.length > 1 && parts.includes('some'))
}

/**
 * `grounding-ignore`: one pattern a line; blank lines and lines starting with `#` are skipped. A pattern matches a
 * name, as the check shows it or any one of the words it looks up, when it matches the whole of it: `*` stands for any
 * run of characters, `?` for one, everything else for itself, case counting.
 */
export function ignoreRules(text: string): (candidates: readonly string[]) => boolean {
  const patterns = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const source = line
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')
      return new RegExp(`^${source}$`, 's')
    })
  return (candidates) => patterns.some((pattern) => candidates.some((candidate) => pattern.test(candidate)))
}
