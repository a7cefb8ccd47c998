import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import { createImageLoader, intakeOptions } from '../../../src-main/intake';
import { buildEnvelope, localEnvelopeContext } from '../../../src-main/services/analyze-envelope';
import { analyzeModelsFromEngine, createAnalyzeService } from '../../../src-main/services/analyze.service';
import { parseAnalyzeOptions } from '../../../src-main/services/api';
import { fixture } from '../../helpers/paths';
import { createEngine, decodeFixture } from '../analysis/fixtures';

const engine = createEngine();
const loader = createImageLoader(intakeOptions('desktop'));
const service = createAnalyzeService({ ...analyzeModelsFromEngine(engine), loader });
afterAll(async () => {
  await loader.close();
  await engine.dispose();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('analyze service on real models', () => {
  it('returns every feature by default, with metadata and a UUID requestId', async () => {
    const { data, timingsMs } = await service.analyze(fixture('family_six_faces.jpg'));
    expect(data.requestId).toMatch(UUID);
    expect(data.metadata).toEqual({ width: 600, height: 462, format: 'Jpeg' });
    expect(Object.keys(data)).toEqual([
      'categories',
      'adult',
      'tags',
      'description',
      'requestId',
      'metadata',
      'faces',
      'color',
      'imageType',
    ]);
    expect(data.faces).toHaveLength(6);
    for (const f of data.faces!) {
      expect(['Male', 'Female']).toContain(f.gender);
      expect(Number.isInteger(f.age) && Number.isInteger(f.faceRectangle.left)).toBe(true);
    }
    expect(data.categories!.map((c) => c.name)).toEqual(expect.arrayContaining(['people_', 'people_group']));
    expect(data.categories!.find((c) => c.name === 'people_')!.detail).toEqual({ celebrities: [] });
    expect(data.tags!.map((t) => t.name)).toEqual(expect.arrayContaining(['person', 'group']));
    expect(data.description!.captions[0]!.text).toMatch(/^a group of people/);
    expect(data.adult).toMatchObject({ isAdultContent: false, isRacyContent: false });
    expect(timingsMs['total']).toBeGreaterThan(0);
  });

  it('returns exactly the requested features, case-insensitively, from a decoded image too', async () => {
    const image = await decodeFixture('cat_chelsea.jpg');
    const { data } = await service.analyze(
      { image, metadata: { width: image.width, height: image.height, format: 'Jpeg' } },
      parseAnalyzeOptions({ feature: 'color,IMAGETYPE' }),
    );
    expect(Object.keys(data).sort()).toEqual(['color', 'imageType', 'metadata', 'requestId']);
  });

  it('omits celebrity details when only Landmarks are asked for', async () => {
    const { data } = await service.analyze(fixture('tom_cruise.jpg'), { features: ['Categories'], details: ['Landmarks'] });
    expect(data.categories!.find((c) => c.name === 'people_')!.detail).toBeUndefined();
  });

  it('unknown features and details are refused by the contract, before any image is fetched', () => {
    expect(() => parseAnalyzeOptions({ features: 'Tags,Brands' })).toThrow(expect.objectContaining({ code: 'unsupported-feature' }));
    expect(() => parseAnalyzeOptions({ details: 'Cars' })).toThrow(expect.objectContaining({ code: 'invalid-details' }));
  });
});

describe('analyze envelope (spec §2.1)', () => {
  it('wraps success with classifier, transaction and trace id', async () => {
    const { data } = await service.analyze(fixture('coffee_cup.jpg'), { features: ['Tags'] });
    const env = buildEnvelope({ data }, { transactionId: 'tx-1', method: 'credit', traceId: 'trace-1' });
    expect(Object.keys(env)).toEqual(['query', 'response', 'status', 'classifier', 'data', 'transaction', 'trace_id']);
    expect(env).toMatchObject({
      query: 'analyze',
      response: 'success',
      status: true,
      transaction: { Id: 'tx-1', Method: 'credit' },
      trace_id: 'trace-1',
    });
    expect(env.classifier).toEqual([{ Id: expect.stringMatching(UUID), Response: 'success' }]);
  });

  it('reports failures with status false, the message and the Azure code', async () => {
    const cases: Array<[unknown, string]> = [
      [new AppError('unsupported-feature', 'Specified feature type is not valid: "Brands".'), 'NotSupportedVisualFeature'],
      [new AppError('invalid-details', 'bad detail'), 'InvalidDetails'],
      [new AppError('invalid-image-url', 'bad url'), 'InvalidImageUrl'],
      [new AppError('invalid-image-format', 'not an image'), 'InvalidImageFormat'],
      [new AppError('image-too-small', 'too small'), 'InvalidImageSize'],
      [new AppError('model-failed', 'boom'), 'FailedToProcess'],
      [new Error('unexpected'), 'InternalServerError'],
    ];
    for (const [error, code] of cases) {
      const env = buildEnvelope({ error }, localEnvelopeContext());
      expect(env.status).toBe(false);
      expect(env.data).toBeUndefined();
      expect(env.error!.code).toBe(code);
      expect(env.response).toBe(env.error!.message);
    }
  });

  it('turns a missing local file into an InvalidImageUrl envelope', async () => {
    const error = await service.analyze(fixture('no-such-file.jpg')).catch((e: unknown) => e);
    expect(buildEnvelope({ error }, localEnvelopeContext()).error!.code).toBe('InvalidImageUrl');
  });
});
