import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import FaceOverlay from '../../../src-renderer/components/FaceOverlay.svelte';

afterEach(() => cleanup());

describe('FaceOverlay', () => {
  it('draws a box per face in image coordinates, with points and names', () => {
    const { container } = render(FaceOverlay, {
      src: '/api/thumbnails/1',
      alt: 'two people',
      width: 640,
      height: 480,
      faces: [
        { left: 10, top: 20, width: 100, height: 120, label: 'Barack Obama', points: [{ x: 40, y: 60, kind: 'eye' as const }] },
        { left: 300, top: 40, width: 90, height: 110, label: null, points: [] },
      ],
    });
    expect(container.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 640 480');
    expect(screen.getAllByTestId('face-box')).toHaveLength(2);
    expect(container.querySelector('rect')?.getAttribute('x')).toBe('10');
    expect(container.querySelectorAll('circle')).toHaveLength(1);
    expect(screen.getByText('Barack Obama')).toBeTruthy();
    expect(screen.getByRole('img', { name: '2 face(s) marked' })).toBeTruthy();
  });
});
