/** A face drawn over the image, in the image's pixel coordinates. */
export interface FaceOverlay {
  left: number;
  top: number;
  width: number;
  height: number;
  label: string | null;
  /** Eye centres and chin tip, when the detector gives them (detect batches). */
  points: Array<{ x: number; y: number; kind: 'eye' | 'chin' }>;
}

type Rect = { left: number; top: number; width: number; height: number };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function sameBox(a: Rect, b: Rect): boolean {
  return Math.abs(a.left - b.left) + Math.abs(a.top - b.top) < Math.max(8, a.width / 4);
}

function fromDetect(image: Record<string, unknown>): FaceOverlay[] {
  const faces = Array.isArray(image.faces) ? image.faces.filter(isObj) : [];
  return faces.map((f) => ({
    left: num(f.topLeftX),
    top: num(f.topLeftY),
    width: num(f.width),
    height: num(f.height),
    label: null,
    points: [
      { x: num(f.leftEyeCenterX), y: num(f.leftEyeCenterY), kind: 'eye' as const },
      { x: num(f.rightEyeCenterX), y: num(f.rightEyeCenterY), kind: 'eye' as const },
      { x: num(f.chinTipX), y: num(f.chinTipY), kind: 'chin' as const },
    ],
  }));
}

function fromAnalyze(data: Record<string, unknown>): FaceOverlay[] {
  const celebrities: Array<{ name: string; rect: Rect }> = [];
  for (const c of Array.isArray(data.categories) ? data.categories.filter(isObj) : []) {
    const list = isObj(c.detail) && Array.isArray(c.detail.celebrities) ? c.detail.celebrities.filter(isObj) : [];
    for (const celeb of list)
      if (isObj(celeb.faceRectangle)) celebrities.push({ name: String(celeb.name), rect: celeb.faceRectangle as Rect });
  }
  const faces = Array.isArray(data.faces) ? data.faces.filter(isObj) : [];
  const overlays: FaceOverlay[] = faces.map((f) => {
    const r = (isObj(f.faceRectangle) ? f.faceRectangle : {}) as Rect;
    const rect = { left: num(r.left), top: num(r.top), width: num(r.width), height: num(r.height) };
    const celeb = celebrities.find((c) => sameBox(c.rect, rect));
    const who = [typeof f.gender === 'string' ? f.gender : null, typeof f.age === 'number' ? String(f.age) : null]
      .filter(Boolean)
      .join(', ');
    return { ...rect, label: celeb ? celeb.name : who || null, points: [] };
  });
  for (const c of celebrities) if (!overlays.some((o) => sameBox(o, c.rect))) overlays.push({ ...c.rect, label: c.name, points: [] });
  return overlays;
}

/** Faces of a stored response: analyze data (`faces`, celebrities) or a detect response (`images[0].faces`). */
export function faceOverlays(response: unknown): FaceOverlay[] {
  if (!isObj(response)) return [];
  if (Array.isArray(response.images)) {
    const image = response.images.find(isObj);
    return image ? fromDetect(image) : [];
  }
  return fromAnalyze(response);
}
