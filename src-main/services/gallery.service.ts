/**
 * Galleries use cases (issue 8), shared by the CLI, the API server and the desktop app: enrol
 * people and places from reference images, list, remove, export/import, and the live matcher
 * that analyze's `GalleryMatcher` hook calls.
 */
import {
  createSnapshotMatcher,
  describePersonReference,
  describePlaceReference,
  descriptorSpec,
  FACE_DESCRIPTOR,
  PLACE_DESCRIPTOR,
  redescribePersonReference,
  type DescriptorSpec,
  type GalleryContents,
  type GalleryKind,
  type SnapshotMatcher,
} from '../analysis/gallery/index'; // the folder, not ../analysis/gallery.ts (analyze's hook types)
import type { GalleryMatcher } from '../analysis';
import { AppError, BugError } from '../core';
import type { ModelRunner, RgbImage } from '../inference';
import type { ImageLoader } from '../intake';
import { GalleryRepo, type Db, type GalleryEntryRecord, type GalleryReferenceRecord, type NewGalleryReference } from '../store';
import { GALLERY } from '../shared/contract';
import {
  checkComparable,
  fromFileReference,
  GALLERY_FILE_FORMAT,
  GALLERY_FILE_VERSION,
  parseGalleryFile,
  toFileReference,
  type GalleryFile,
} from './gallery-export';

/** What the service needs: the database, models (with manifest specs for the sha256) and intake. */
export interface GalleryServiceDeps {
  db: Db;
  engine: ModelRunner;
  /** Loads reference images; only enrolment needs it (a matching-only service may omit it). */
  loader?: Pick<ImageLoader, 'load'>;
}

/** An entry as the UI, API and CLI show it. */
export interface GallerySummary {
  id: number;
  kind: GalleryKind;
  name: string;
  mid: string | null;
  latitude: number | null;
  longitude: number | null;
  references: number;
  createdAt: string;
}

/** Place enrolment details. */
export interface PlaceDetails {
  latitude: number;
  longitude: number;
  mid?: string;
}

/** Outcome of an import. */
export interface GalleryImportReport {
  /** Distinct gallery entries that received references (names differing only in case are one entry). */
  entries: number;
  /** Of those, entries the import created. */
  created: number;
  /** Entries of the file added to an entry of the same name (already stored, or earlier in the file). */
  merged: number;
  references: number;
}

/** A stored person reference the current recipe cannot use and could not describe again. */
export interface StaleReference {
  referenceId: number;
  entryId: number;
  name: string;
  source: string;
  /** The recipe that made it. */
  method: string;
  reason: string;
}

/** Person references by usability under the installed model and recipe. */
export interface PersonReferenceStatus {
  /** Made by the installed model file and recipe: used by the matcher. */
  current: number;
  /** Made by another model or recipe, and already described again (a current row shares their source and face box). */
  replaced: number;
  /** Made by another model or recipe and not yet described again: ignored by the matcher until `redescribePeople`. */
  stale: { referenceId: number; entryId: number; name: string; source: string; method: string }[];
}

/** One reference described again, or why it cannot be. */
type Redescribed = { status: 'redescribed'; vector: Float32Array } | { status: 'needs-re-enrolment'; reason: string };

/** Outcome of `redescribe`. */
export interface RedescribeReport {
  /** New references stored by the current recipe (the old rows stay). */
  redescribed: number;
  /** References that need re-enrolment from another photo (their source is gone, changed or holds no face). */
  needsReEnrolment: StaleReference[];
}

/** One built matcher and how many matches are using it. */
interface Snapshot {
  revision: number;
  matcher: SnapshotMatcher;
  uses: number;
  retired: boolean;
}

const summary = (e: GalleryEntryRecord): GallerySummary => ({
  id: e.id,
  kind: e.kind,
  name: e.name,
  mid: e.mid,
  latitude: e.latitude,
  longitude: e.longitude,
  references: e.references,
  createdAt: e.createdAt,
});

/** Enrolment, listing, removal, export/import and the live analyze matcher over one database. */
export class GalleryService {
  private readonly repo: GalleryRepo;
  private current?: Snapshot;

  constructor(private readonly deps: GalleryServiceDeps) {
    this.repo = new GalleryRepo(deps.db);
  }

  /**
   * Enrols (or adds references to) a person. Each image must show exactly one face, or
   * `faceNumber` picks one (1-based, left to right). All images are processed before anything is
   * stored: one bad reference stores nothing.
   */
  async addPerson(
    name: string,
    sources: readonly string[],
    opts: { faceNumber?: number } = {},
    signal?: AbortSignal,
  ): Promise<GallerySummary> {
    const clean = checkName(name);
    checkSources(sources);
    const refs: NewGalleryReference[] = [];
    for (const source of sources) {
      const loaded = await this.load(source, signal);
      const d = await describePersonReference(
        loaded.image,
        this.deps.engine,
        { source: loaded.source, faceNumber: opts.faceNumber },
        signal,
      );
      refs.push(this.reference(FACE_DESCRIPTOR, loaded.source, d.vector, d.face, d.thumbnail));
    }
    return summary(this.repo.enrol({ kind: 'person', name: clean, mid: null, latitude: null, longitude: null }, refs));
  }

  /** Enrols (or adds references to) a place; its mid and location are set to `place`. */
  async addPlace(name: string, place: PlaceDetails, sources: readonly string[], signal?: AbortSignal): Promise<GallerySummary> {
    const clean = checkName(name);
    checkSources(sources);
    checkLocation(place.latitude, place.longitude);
    const refs: NewGalleryReference[] = [];
    for (const source of sources) {
      const loaded = await this.load(source, signal);
      const d = await describePlaceReference(loaded.image, this.deps.engine, signal);
      refs.push(this.reference(PLACE_DESCRIPTOR, loaded.source, d.vector, null, d.thumbnail));
    }
    const mid = place.mid?.trim() || null;
    return summary(this.repo.enrol({ kind: 'place', name: clean, mid, latitude: place.latitude, longitude: place.longitude }, refs));
  }

  /**
   * Which stored references of `kind` the matcher uses, which were made by another model or recipe
   * (an older install: ignored, never deleted) and whether they were described again.
   */
  referenceStatus(kind: GalleryKind): PersonReferenceStatus {
    const spec = kind === 'person' ? FACE_DESCRIPTOR : PLACE_DESCRIPTOR;
    const refs = this.repo.referencesOfKind(kind);
    const out: PersonReferenceStatus = { current: 0, replaced: 0, stale: [] };
    if (refs.length === 0) return out;
    const names = new Map(this.repo.list().map((e) => [e.id, e.name]));
    const current = refs.filter((r) => this.isCurrent(spec, r));
    out.current = current.length;
    for (const r of refs) {
      if (this.isCurrent(spec, r)) continue;
      if (current.some((c) => sameOrigin(c, r))) out.replaced++;
      else out.stale.push({ referenceId: r.id, entryId: r.entryId, name: names.get(r.entryId) ?? '', source: r.source, method: r.method });
    }
    return out;
  }

  /** `referenceStatus('person')`. */
  personReferenceStatus(): PersonReferenceStatus {
    return this.referenceStatus('person');
  }

  /**
   * Describes stale references of `kind` (made by another model or recipe) again with the
   * installed recipe, from their stored source (and, for people, face box), and stores the new
   * vectors beside the old rows (which stay, ignored by the matcher: nothing is lost). References
   * whose source cannot be read (or, for people, has changed or shows no face at the stored box)
   * are reported as needing re-enrolment. Running it again does nothing more for references
   * already described again.
   */
  async redescribe(kind: GalleryKind, signal?: AbortSignal): Promise<RedescribeReport> {
    const stale = this.referenceStatus(kind).stale;
    const report: RedescribeReport = { redescribed: 0, needsReEnrolment: [] };
    if (stale.length === 0) return report;
    const byId = new Map(this.repo.referencesOfKind(kind).map((r) => [r.id, r]));
    for (const s of stale) {
      const old = byId.get(s.referenceId)!;
      const entry = this.repo.get(old.entryId)!;
      const outcome = kind === 'person' ? await this.redescribePerson(old, signal) : await this.redescribePlace(old, signal);
      if (outcome.status === 'needs-re-enrolment') {
        report.needsReEnrolment.push({ ...s, reason: outcome.reason });
        continue;
      }
      // Keeps the stored face box (the origin that referenceStatus() matches on) and the old thumbnail.
      const ref = this.reference(kind === 'person' ? FACE_DESCRIPTOR : PLACE_DESCRIPTOR, old.source, outcome.vector, old.face, null);
      this.repo.enrol({ kind, name: entry.name, mid: entry.mid, latitude: entry.latitude, longitude: entry.longitude }, [
        { ...ref, thumbnail: old.thumbnail, thumbnailType: old.thumbnailType },
      ]);
      report.redescribed++;
    }
    return report;
  }

  /** `redescribe('person')`. */
  redescribePeople(signal?: AbortSignal): Promise<RedescribeReport> {
    return this.redescribe('person', signal);
  }

  private redescribePerson(old: GalleryReferenceRecord, signal?: AbortSignal): Promise<Redescribed> {
    return redescribePersonReference(
      { id: old.id, source: old.source, face: old.face },
      async (source, sig) => (await this.load(source, sig)).image,
      this.deps.engine,
      signal,
    );
  }

  // A place reference is the whole picture: its source, read again as it is now.
  private async redescribePlace(old: GalleryReferenceRecord, signal?: AbortSignal): Promise<Redescribed> {
    let image: RgbImage;
    try {
      image = (await this.load(old.source, signal)).image;
    } catch (err) {
      if (signal?.aborted) throw err;
      return { status: 'needs-re-enrolment', reason: `its source ${old.source} cannot be read (${(err as Error).message})` };
    }
    return { status: 'redescribed', vector: (await describePlaceReference(image, this.deps.engine, signal)).vector };
  }

  /** Every entry, people first, by name. */
  list(): GallerySummary[] {
    return this.repo.list().map(summary);
  }

  /** Removes an entry and its references; `not-found` if there is no such id. */
  remove(id: number): GallerySummary {
    const entry = this.repo.get(id);
    if (!entry || !this.repo.remove(id)) throw new AppError('not-found', `No gallery entry ${id} (see picscan gallery list).`);
    return summary(entry);
  }

  /** A reference thumbnail (WebP) by reference id. */
  thumbnail(referenceId: number): { data: Uint8Array; type: string } | undefined {
    return this.repo.thumbnail(referenceId);
  }

  /** The portable file of both galleries. */
  exportAll(now = new Date()): GalleryFile {
    const models: GalleryFile['models'] = {};
    for (const spec of [FACE_DESCRIPTOR, PLACE_DESCRIPTOR]) models[spec.modelId] = { sha256: this.modelSha(spec), method: spec.method };
    return {
      format: GALLERY_FILE_FORMAT,
      version: GALLERY_FILE_VERSION,
      exportedAt: now.toISOString(),
      models,
      entries: this.repo.list().map((e) => ({
        kind: e.kind,
        name: e.name,
        mid: e.mid,
        latitude: e.latitude,
        longitude: e.longitude,
        references: this.repo.referencesOf(e.id).map(toFileReference),
      })),
    };
  }

  /**
   * Imports a file made by `exportAll` (parsed JSON). Every reference must come from this
   * install's model file and recipe, else nothing is imported (`invalid-input` naming the model
   * and both checksums: re-enrol from the original images instead). Entries with an existing
   * name get the references added.
   */
  importAll(json: unknown): GalleryImportReport {
    const file = parseGalleryFile(json);
    // Everything is checked before anything is stored: one bad reference imports nothing.
    const entries = file.entries.map(({ references: refs, ...entry }) => {
      const spec = descriptorSpec(entry.kind);
      const sha = this.modelSha(spec);
      return {
        entry,
        refs: refs.map((r) => {
          checkComparable(spec, sha, r, entry.name);
          return fromFileReference(spec, r, entry.name);
        }),
      };
    });
    // Enrolment merges names case-insensitively, so the report counts the entries actually written.
    let references = 0;
    const touched = new Set<number>();
    const before = new Set<number>();
    this.repo.transaction(() => {
      for (const e of this.repo.list()) before.add(e.id);
      for (const { entry, refs } of entries) {
        touched.add(this.repo.enrol(entry, refs).id);
        references += refs.length;
      }
    });
    const created = [...touched].filter((id) => !before.has(id)).length;
    return { entries: touched.size, created, merged: file.entries.length - created, references };
  }

  /**
   * The matcher analyze uses. It follows the database: after any change (here or in another
   * process sharing the file) the next call rebuilds the in-memory index.
   */
  matcher(): Required<GalleryMatcher> {
    return {
      matchCelebrities: (img, faces, signal) => this.use((m) => m.matchCelebrities(img, faces, signal)),
      matchLandmarks: (img, signal) => this.use((m) => m.matchLandmarks(img, signal)),
    };
  }

  /** Frees the matcher's scan sessions (call when no match is running). */
  async dispose(): Promise<void> {
    const s = this.current;
    this.current = undefined;
    await s?.matcher.dispose();
  }

  // Runs one match on the current snapshot. A snapshot replaced meanwhile (the galleries
  // changed) is disposed only when its last running match ends, never under a running scan.
  private async use<T>(run: (m: SnapshotMatcher) => Promise<T>): Promise<T> {
    const s = this.snapshot();
    s.uses++;
    try {
      return await run(s.matcher);
    } finally {
      s.uses--;
      if (s.retired && s.uses === 0) void s.matcher.dispose();
    }
  }

  private snapshot(): Snapshot {
    const revision = this.repo.revision();
    if (this.current?.revision === revision) return this.current;
    const old = this.current;
    this.current = { revision, matcher: createSnapshotMatcher(this.deps.engine, this.contents(revision)), uses: 0, retired: false };
    if (old) {
      old.retired = true;
      if (old.uses === 0) void old.matcher.dispose();
    }
    return this.current;
  }

  // Only references made by this install's model file and recipe are comparable; others (an
  // import that predates a model update) are skipped rather than mixed in.
  private contents(revision: number): GalleryContents {
    const usable = (spec: DescriptorSpec) => {
      const refs = this.repo.referencesOfKind(spec.kind);
      if (refs.length === 0) return []; // an empty gallery needs no model (nor its manifest entry)
      const sha = this.modelSha(spec);
      return refs.filter((r) => this.isCurrent(spec, r, sha)).map((r) => ({ entryId: r.entryId, vector: r.descriptor }));
    };
    const entries = this.repo
      .list()
      .map((e) => ({ id: e.id, kind: e.kind, name: e.name, mid: e.mid, latitude: e.latitude, longitude: e.longitude }));
    return { version: String(revision), entries, people: usable(FACE_DESCRIPTOR), places: usable(PLACE_DESCRIPTOR) };
  }

  private load(source: string, signal?: AbortSignal): ReturnType<ImageLoader['load']> {
    if (!this.deps.loader) throw new BugError('GalleryService: enrolment needs an image loader');
    return this.deps.loader.load(source, signal);
  }

  private isCurrent(spec: DescriptorSpec, r: GalleryReferenceRecord, sha = this.modelSha(spec)): boolean {
    return r.modelId === spec.modelId && r.modelSha256 === sha && r.method === spec.method && r.dim === spec.dim;
  }

  private modelSha(spec: DescriptorSpec): string {
    return this.deps.engine.spec(spec.modelId).sha256;
  }

  private reference(
    spec: DescriptorSpec,
    source: string,
    vector: Float32Array,
    face: NewGalleryReference['face'],
    thumbnail: { data: Uint8Array; mimeType: string } | null,
  ): NewGalleryReference {
    return {
      entryId: 0,
      source,
      modelId: spec.modelId,
      modelSha256: this.modelSha(spec),
      method: spec.method,
      dim: spec.dim,
      descriptor: vector,
      face,
      thumbnail: thumbnail?.data ?? null,
      thumbnailType: thumbnail?.mimeType ?? null,
    };
  }
}

/** Two references of one entry from the same source and face box (a place has none): one described again from the other. */
function sameOrigin(a: GalleryReferenceRecord, b: GalleryReferenceRecord): boolean {
  const fa = a.face;
  const fb = b.face;
  const sameFace =
    fa === null || fb === null ? fa === fb : fa.left === fb.left && fa.top === fb.top && fa.width === fb.width && fa.height === fb.height;
  return a.entryId === b.entryId && a.source === b.source && sameFace;
}

function checkName(name: string): string {
  const clean = name.trim();
  if (!clean) throw new AppError('invalid-parameter', 'A gallery entry needs a non-empty name.');
  if (clean.length > GALLERY.nameMaxChars)
    throw new AppError('invalid-parameter', `Gallery names are limited to ${GALLERY.nameMaxChars} characters.`);
  return clean;
}

function checkSources(sources: readonly string[]): void {
  if (sources.length === 0) throw new AppError('missing-parameter', 'Give at least one reference image (a file path or an http(s) URL).');
}

function checkLocation(latitude: number, longitude: number): void {
  // The contract's bounds (the UI form and the bridge check the same ones).
  const { latitude: lat, longitude: lng } = GALLERY;
  if (!Number.isFinite(latitude) || latitude < lat.min || latitude > lat.max)
    throw new AppError('invalid-parameter', `Latitude must be a number from ${lat.min} to ${lat.max} degrees (got ${latitude}).`);
  if (!Number.isFinite(longitude) || longitude < lng.min || longitude > lng.max)
    throw new AppError('invalid-parameter', `Longitude must be a number from ${lng.min} to ${lng.max} degrees (got ${longitude}).`);
}
