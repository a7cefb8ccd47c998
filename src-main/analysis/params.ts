import { AppError } from '../core';
import { DETAILS, VISUAL_FEATURES, type Detail, type VisualFeature } from '../shared/spec';

/** A parameter as it may arrive: absent, one comma-separated string, or repeated values. */
export type ListParam = string | readonly string[] | undefined | null;

function splitList(raw: ListParam): string[] {
  const parts = typeof raw === 'string' ? [raw] : raw ? [...raw] : [];
  return parts
    .flatMap((p) => p.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function parseList<T extends string>(raw: ListParam, allowed: readonly T[], onUnknown: (value: string) => AppError): Set<T> {
  if (raw === undefined || raw === null) return new Set(allowed);
  const out = new Set<T>();
  for (const value of splitList(raw)) {
    const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
    if (!match) throw onUnknown(value);
    out.add(match);
  }
  return out;
}

/**
 * Parses `features` (or its spelling `feature`): comma-separated, case-insensitive values of
 * VISUAL_FEATURES. Omitted → all features; given → exactly those (an empty string selects none).
 * Unknown values throw `unsupported-feature` (Azure `NotSupportedVisualFeature`).
 */
export function parseFeatures(raw: ListParam): Set<VisualFeature> {
  return parseList(
    raw,
    VISUAL_FEATURES,
    (v) =>
      new AppError('unsupported-feature', `Specified feature type is not valid: "${v}". Allowed: ${VISUAL_FEATURES.join(', ')}.`, {
        details: { value: v },
      }),
  );
}

/**
 * Parses `details`: comma-separated, case-insensitive `Landmarks`, `Celebrities`. Omitted →
 * both. Unknown values throw `invalid-details` (Azure `InvalidDetails`).
 */
export function parseDetails(raw: ListParam): Set<Detail> {
  return parseList(
    raw,
    DETAILS,
    (v) =>
      new AppError('invalid-details', `Unsupported detail parameter value: "${v}". Allowed: ${DETAILS.join(', ')}.`, {
        details: { value: v },
      }),
  );
}

/** Picks `features`, falling back to the `feature` spelling; both given must agree. */
export function featuresParam(features: ListParam, feature: ListParam): ListParam {
  if (features !== undefined && features !== null && feature !== undefined && feature !== null) {
    const a = [...parseFeatures(features)].sort().join(',');
    const b = [...parseFeatures(feature)].sort().join(',');
    if (a !== b)
      throw new AppError('invalid-parameter', 'Both "features" and "feature" were given with different values; send one of them.');
  }
  return features ?? feature;
}
