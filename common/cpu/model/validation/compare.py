# Modelled vs published ms per kernel, and Spearman rank correlation per set and device.
# Run from the repository root after the three profile.sh runs in README.md (they write build/profile/validation/).
import csv,sys
pub=list(csv.DictReader(open('common/cpu/model/validation/published.tsv'),delimiter='\t'))
model={}
for fn in ['harris_reduction','harris_transpose','amd_transpose']:
    for r in csv.DictReader(open(f'build/profile/validation/{fn}.model.tsv'),delimiter='\t'):
        model[(r['kernel'],r['device'])]=r
def rank(v):
    s=sorted(range(len(v)),key=lambda i:v[i]); r=[0]*len(v); i=0
    while i<len(s):
        j=i
        while j+1<len(s) and v[s[j+1]]==v[s[i]]: j+=1
        for k in range(i,j+1): r[s[k]]=(i+j)/2+1
        i=j+1
    return r
def spearman(a,b):
    ra,rb=rank(a),rank(b); n=len(a); ma=sum(ra)/n; mb=sum(rb)/n
    cov=sum((x-ma)*(y-mb) for x,y in zip(ra,rb)); va=sum((x-ma)**2 for x in ra)**.5; vb=sum((y-mb)**2 for y in rb)**.5
    return cov/(va*vb) if va and vb else float('nan')
groups={}
print("| set | kernel | device | modelled ms | published ms | model/published | binding term |")
print("|---|---|---|---:|---:|---:|---|")
for p in pub:
    m=model[(p['kernel'],p['device'])]
    mm=float(m['model_ms']); pm=float(p['published_ms'])
    groups.setdefault((p['set'],p['device']),[]).append((mm,pm))
    print(f"| {p['set']} | {p['kernel']} | {p['device']} | {mm:.4f} | {pm:.4f} | {mm/pm:.2f} | {m['binding']}: {m['why']} |")
print()
for g,v in groups.items():
    print(g, len(v), "spearman", round(spearman([a for a,b in v],[b for a,b in v]),3))
