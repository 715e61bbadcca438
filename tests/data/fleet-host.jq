# A fleet host's record from an A/A record: named $host, variants $a and
# $b swapped (another draw of the same noise), every figure pulled
# towards its variant's and test's geometric mean by $quiet (0.1: a
# tenth of the spread), then v2's figures times $f.
def gmeans: [.runs[] | .variant.name as $v | .tests[]
    | select(.value != null and .value > 0) | {k: ($v + "/" + .key), l: (.value | log)}]
  | group_by(.k) | map({key: .[0].k, value: (map(.l) | add / length)}) | from_entries;
(gmeans) as $g
| .host.hostname = $host
| .runs |= map(
    (if .variant.name == $a then .variant.name = $b
     elif .variant.name == $b then .variant.name = $a else . end)
    | .variant.name as $v
    | .tests |= map(
        if .value != null and .value > 0 then
          ($g[$v + "/" + .key]) as $m
          | .value = ((($m + $quiet * ((.value | log) - $m)) | exp)
              * (if $v == "v2" then $f else 1 end))
        else . end))
