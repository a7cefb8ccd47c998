#!/bin/bash
# Held-out charts for the chart references' calibration and tests: drawn by gnuplot (Debian
# gnuplot-nox, pngcairo), a plotting engine the references (matplotlib, render.py) never saw.
#   bash tooling/drawings/charts/gnuplot.sh OUT_DIR
# Writes NNNN-KIND.png, KIND as in render.py (lines → line, points → scatter, boxes → bar …).
set -euo pipefail
out=${1:?OUT_DIR}
mkdir -p "$out"
i=0
styles=("lines:line" "linespoints:line" "points:scatter" "boxes:bar" "impulses:bar" "steps:step" "filledcurves x1:area")
functions=("sin(x)+1.5" "x**2/10" "exp(-x/3)*cos(2*x)+1" "log(x+1)" "sqrt(x)*2")
for entry in "${styles[@]}"; do
  style=${entry%%:*}
  kind=${entry##*:}
  for fn in "${functions[@]}"; do
    i=$((i + 1))
    w=$((500 + (i * 37) % 400))
    h=$((300 + (i * 53) % 250))
    grid=""
    [ $((i % 2)) = 0 ] && grid="set grid;"
    gnuplot -e "set terminal pngcairo size $w,$h; set output '$out/$(printf %04d $i)-$kind.png'; $grid set xlabel 'x'; set ylabel 'value'; set title 'Plot $i'; set samples 40; set style fill solid 0.5; plot [0:10] $fn with $style title '$fn'"
  done
done
# Grouped bars from inline data (gnuplot's histogram style), the script on stdin.
for j in 1 2 3 4 5; do
  i=$((i + 1))
  gnuplot <<GP
set terminal pngcairo size $((520 + j * 60)),$((340 + j * 30))
set output '$out/$(printf %04d $i)-groupbar.png'
set style data histogram
set style fill solid border -1
set title 'Series $j'
\$d << EOD
A $((j + 2)) 4
B 5 $((j + 1))
C $((7 - j)) 6
D 7 3
EOD
plot \$d using 2:xtic(1) title 'first', '' using 3 title 'second'
GP
done
