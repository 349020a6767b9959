// Docs changes as GitHub lists a pull request's files, and indexes made from text, for the grounding tests.
import type { ChangedFile } from '../../../src/github/change.ts'
import { type Corpus, type CorpusRead, WordTable } from '../../../src/after-job/corpus.ts'

/** A file the change adds whole: every line an added line of one hunk. */
export function addedFile(path: string, text: string): ChangedFile {
  const lines = text.split('\n')
  const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}`
  return { path, status: 'added', additions: lines.length, deletions: 0, patch }
}

/** A file the change modifies, with its patch as given. */
export function modifiedFile(path: string, patch: string): ChangedFile {
  return { path, status: 'modified', additions: 1, deletions: 0, patch }
}

/** An index of the text, read as a corpus of code in these languages. */
export function corpusOf(text: string, languages: readonly string[] = ['javascript']): CorpusRead {
  const words = new WordTable()
  words.addText(Buffer.from(text))
  const corpus: Corpus = { words, languages: new Set(languages), files: 1, bytes: text.length, skipped: 0 }
  return { kind: 'read', corpus }
}
