# Shared by the benchmark scripts that time runs side by side (source it):
#   seconds CMD...   the wall time of one run of CMD, its output discarded
#   median           the median of 5 numbers on standard input
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { sort -n | sed -n 3p; }
