import random, sys
random.seed(7)
BIN=['+','-','*','/']; UN=['neg','sin','cos','exp','log','sqrt']
def tree(d):
    if d==0 or (d<4 and random.random()<0.3):
        return 'x%d'%random.randint(1,10) if random.random()<0.75 else '%.3f'%random.uniform(-1,1)
    if random.random()<0.7:
        return '(%s %s %s)'%(random.choice(BIN),tree(d-1),tree(d-1))
    return '(%s %s)'%(random.choice(UN),tree(d-1))
def size(s): return s.count('(')+len([t for t in s.replace('(',' ').replace(')',' ').split() if t[0] in 'x-0123456789.' and t not in ('-',)])
out=[]
while len(out)<int(sys.argv[1]):
    t=tree(random.randint(4,9))
    n=len(t.replace('(',' ( ').replace(')',' ) ').split())-2*t.count('(')
    if 3<=n<=64: out.append(t)
print('\n'.join(out))
