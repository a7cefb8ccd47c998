/**
 * Response and parameter types of the two operations, exactly as the service specification
 * (`image-analysis-service.md` §2, §4, §7) names them. Field names are part of the public API.
 */

/** Visual features of `ai/vision/analyze` (spec §4.1); accepted case-insensitively. */
export const VISUAL_FEATURES = ['Categories', 'Tags', 'Description', 'Faces', 'ImageType', 'Adult', 'Color'] as const;
export type VisualFeature = (typeof VISUAL_FEATURES)[number];

/** Domain details of `ai/vision/analyze` (spec §4.1); accepted case-insensitively. */
export const DETAILS = ['Landmarks', 'Celebrities'] as const;
export type Detail = (typeof DETAILS)[number];

/** Face-detector selectors (Kairos semantics). */
export const SELECTORS = ['FRONTAL', 'FULL', 'ROLL', 'PARTIAL'] as const;
export type Selector = (typeof SELECTORS)[number];

/** `minHeadScale` bounds and default (spec §4.2, §8). */
export const MIN_HEAD_SCALE = { min: 0.015, max: 0.5, default: 0.015 } as const;

/** Pixel rectangle, integers, origin top-left. */
export interface FaceRectangle {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Celebrity {
  name: string;
  faceRectangle: FaceRectangle;
  /** 0..1 */
  confidence: number;
}

export interface LandmarkDetail {
  name: string;
  /** 0..1 */
  confidence: number;
}

/** The 86 taxonomy names (reference/azure-86-categories.json), in official order. */
// prettier-ignore
export const CATEGORY_NAMES = [
  'abstract_', 'abstract_net', 'abstract_nonphoto', 'abstract_rect', 'abstract_shape', 'abstract_texture',
  'animal_', 'animal_bird', 'animal_cat', 'animal_dog', 'animal_horse', 'animal_panda',
  'building_', 'building_arch', 'building_brickwall', 'building_church', 'building_corner', 'building_doorwindows', 'building_pillar', 'building_stair', 'building_street',
  'dark_', 'drink_', 'drink_can', 'dark_fire', 'dark_fireworks', 'dark_light',
  'food_', 'food_bread', 'food_fastfood', 'food_grilled', 'food_pizza',
  'indoor_', 'indoor_churchwindow', 'indoor_court', 'indoor_doorwindows', 'indoor_marketstore', 'indoor_room', 'indoor_venue',
  'object_screen', 'object_sculpture', 'others_',
  'outdoor_', 'outdoor_city', 'outdoor_field', 'outdoor_grass', 'outdoor_house', 'outdoor_mountain', 'outdoor_oceanbeach', 'outdoor_playground',
  'outdoor_pool', 'outdoor_railway', 'outdoor_road', 'outdoor_sportsfield', 'outdoor_stonerock', 'outdoor_street', 'outdoor_water', 'outdoor_waterside',
  'people_', 'people_baby', 'people_crowd', 'people_group', 'people_hand', 'people_many', 'people_portrait', 'people_show', 'people_swimming', 'people_tattoo', 'people_young',
  'plant_', 'plant_branch', 'plant_flower', 'plant_leaves', 'plant_tree',
  'sky_cloud', 'sky_object', 'sky_sun',
  'text_', 'text_mag', 'text_map', 'text_menu', 'text_sign',
  'trans_bicycle', 'trans_bus', 'trans_car', 'trans_trainstation',
] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

export interface Category {
  /** One of the 86 taxonomy names (`people_`, `outdoor_water`, …). */
  name: string;
  /** 0..1 */
  score: number;
  detail?: { celebrities?: Celebrity[]; landmarks?: LandmarkDetail[] };
}

export interface Tag {
  name: string;
  /** 0..1, sorted descending in responses. */
  confidence: number;
}

export interface Caption {
  text: string;
  /** 0..1 */
  confidence: number;
}

export interface Description {
  tags: string[];
  captions: Caption[];
}

export interface AnalyzeFace {
  age: number;
  gender: 'Male' | 'Female';
  faceRectangle: FaceRectangle;
}

export interface Adult {
  isAdultContent: boolean;
  isRacyContent: boolean;
  /** 0..1 */
  adultScore: number;
  /** 0..1 */
  racyScore: number;
}

/** The 12 colour names of the colour vocabulary. */
export const COLOR_NAMES = [
  'Black',
  'Blue',
  'Brown',
  'Gray',
  'Green',
  'Orange',
  'Pink',
  'Purple',
  'Red',
  'Teal',
  'White',
  'Yellow',
] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

export interface Color {
  dominantColorForeground: ColorName;
  dominantColorBackground: ColorName;
  dominantColors: ColorName[];
  /** Six hex digits, no '#'. */
  accentColor: string;
  isBWImg: boolean;
}

export interface ImageType {
  /** 0 non-clip-art, 1 ambiguous, 2 normal clip art, 3 good clip art. */
  clipArtType: 0 | 1 | 2 | 3;
  /** 0 not a line drawing, 1 line drawing. */
  lineDrawingType: 0 | 1;
}

export interface ImageMetadata {
  width: number;
  height: number;
  format: 'Jpeg' | 'Png';
}

/** Landmark document of spec §2.3 (Google Vision shape). */
export interface LandmarkAnnotation {
  mid: string;
  description: string;
  score: number;
  boundingPoly: { vertices: Array<{ x: number; y: number }> };
  locations: Array<{ latLng: { latitude: number; longitude: number } }>;
}

/** `data` of the analyze envelope (spec §2.2); parts present follow the requested features. */
export interface AnalyzeData {
  categories?: Category[];
  adult?: Adult;
  tags?: Tag[];
  description?: Description;
  requestId: string;
  metadata: ImageMetadata;
  faces?: AnalyzeFace[];
  color?: Color;
  imageType?: ImageType;
  /** Landmark document (spec §2.3), present when the place gallery matched. */
  Landmarks?: LandmarkAnnotation[];
}

/** Analyze response envelope (spec §2.1). */
export interface AnalyzeEnvelope {
  query: 'analyze';
  response: string;
  status: boolean;
  classifier: Array<{ Id: string; Response: string }>;
  data?: AnalyzeData;
  transaction: { Id: string; Method: string };
  trace_id: string;
  /** Present when status is false: Azure-style code and message. */
  error?: { code: string; message: string };
}

/** Kairos-style face attributes (spec §2.4). */
export interface FaceAttributes {
  lips: 'Together' | 'Apart';
  glasses: 'None' | 'Eye' | 'Sun';
  gender: { type: 'M' | 'F'; maleConfidence: number; femaleConfidence: number };
  age: number;
  asian: number;
  hispanic: number;
  black: number;
  white: number;
  other: number;
}

/** One face of the detect response (spec §2.4). Coordinates are integer pixels, top-left origin. */
export interface DetectedFace {
  face_id: number;
  topLeftX: number;
  topLeftY: number;
  width: number;
  height: number;
  chinTipX: number;
  chinTipY: number;
  leftEyeCenterX: number;
  leftEyeCenterY: number;
  rightEyeCenterX: number;
  rightEyeCenterY: number;
  yaw: number;
  pitch: number;
  roll: number;
  confidence: number;
  quality: number;
  attributes: FaceAttributes;
}

export interface DetectImage {
  status: 'Complete';
  width: number;
  height: number;
  file: string;
  faces: DetectedFace[];
}

export interface DetectSuccess {
  images: DetectImage[];
}

/** Kairos error body, returned with HTTP 200 (spec §7). */
export interface DetectErrors {
  Errors: Array<{ Message: string; ErrCode: number }>;
}

export type DetectResponse = DetectSuccess | DetectErrors;

export function isDetectErrors(r: DetectResponse): r is DetectErrors {
  return 'Errors' in r;
}
