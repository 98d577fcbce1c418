# Turns clang's -Rpass-analysis=kernel-resource-usage remarks (one chapter's
# compile output, kernel names already demangled) into TSV rows:
#   chapter kernel vgprs sgprs lds_bytes scratch_bytes vgpr_spills sgpr_spills waves_per_simd
# Run as: awk -v chapter=NAME -f kernel_name.awk -f resources.awk remarks.txt
# (kernel_list=FILE: the kernels' demangled symbols, for kernel_name.awk).
function flush() {
    if (kernel != "")
        print chapter "\t" kernel "\t" v["VGPRs"] "\t" v["SGPRs"] "\t" v["LDS"] "\t" \
              v["Scratch"] "\t" v["VGPRSpill"] "\t" v["SGPRSpill"] "\t" v["Occupancy"]
    kernel = ""
    delete v
}
BEGIN { if (kernel_list != "") kernel_list_read(kernel_list) }
/remark: Function Name: / {
    flush()
    name = $0
    sub(/.*Function Name: /, "", name)
    sub(/ \[-Rpass-analysis.*/, "", name)
    kernel = kernel_name(name)
    next
}
kernel != "" && /remark: +[A-Za-z]/ {
    line = $0
    sub(/.*remark: +/, "", line)
    sub(/ \[-Rpass-analysis.*/, "", line)
    split(line, kv, ": ")
    key = kv[1]; value = kv[2]
    if (key == "VGPRs") v["VGPRs"] = value
    else if (key == "SGPRs") v["SGPRs"] = value
    else if (key ~ /^LDS Size/) v["LDS"] = value
    else if (key ~ /^ScratchSize/) v["Scratch"] = value
    else if (key == "VGPRs Spill") v["VGPRSpill"] = value
    else if (key == "SGPRs Spill") v["SGPRSpill"] = value
    else if (key ~ /^Occupancy/) v["Occupancy"] = value
}
END { flush() }
