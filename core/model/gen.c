#include "model/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/routine.h"
#include "util/strbuf.h"

typedef struct bind_default {
    const char *name;
    int64_t value;
} bind_default_t;

typedef struct kind_info {
    const char *name;
    const char *look;   /* what to look at, for the file's header comment */
    int32_t layers, max_layers;
    const char *binds_text;
    bind_default_t binds[8];
} kind_info_t;

static const kind_info_t KINDS[GEN_COUNT] = {
    [GEN_TRANSFORMER] = { "transformer",
                          "the [B, heads, T, T] attention scores and probabilities dominate; fit trades them for recompute",
                          12, 4096, "B=4 T=512 D=768 heads=12 F=3072 V=32000",
                          { { "B", 4 }, { "T", 512 }, { "D", 768 }, { "heads", 12 }, { "F", 3072 }, { "V", 32000 } } },
    [GEN_RESNET] = { "resnet", "early stages hold the big activations until their backward; batchnorms fuse into relus",
                     8, 4096, "B=32 H=56 C=64 K=1000",
                     { { "B", 32 }, { "H", 56 }, { "C", 64 }, { "K", 1000 } } },
    [GEN_UNET] = { "unet", "the encoder's skips (a_i) stay live across the whole network, to their decoder level",
                   4, 12, "B=8 H=256 C=32", { { "B", 8 }, { "H", 256 }, { "C", 32 } } },
    [GEN_CHAIN] = { "chain", "every activation lives to its backward: fit recomputes all but every ninth (depth 8)",
                    16, 1000000, "B=64 D=1024", { { "B", 64 }, { "D", 1024 } } },
    [GEN_MLP] = { "mlp", "the relu outputs wait for the backward; the bias adds are fused (@inline)",
                  2, 4096, "B=64 D=784 H=1024 C=10", { { "B", 64 }, { "D", 784 }, { "H", 1024 }, { "C", 10 } } },
};

int gen_kind_parse(const char *s)
{
    for (int k = 0; k < GEN_COUNT; k++)
        if (strcmp(KINDS[k].name, s) == 0)
            return k;
    return -1;
}

const char *gen_kind_name(gen_kind_t k) { return KINDS[k].name; }
int32_t gen_default_layers(gen_kind_t k) { return KINDS[k].layers; }
const char *gen_default_binds(gen_kind_t k) { return KINDS[k].binds_text; }

/* ---- transformer ------------------------------------------------------------ */

/* One decoder block forward; h is the block's input name. */
static void tf_forward(strbuf_t *b, int l, const char *h)
{
    strbuf_printf(b, "\n# block %d forward\n", l);
    strbuf_printf(b, "ln1_%d = layernorm(%s, g1_%d) [B, T, D] cost=5*B*T*D\n", l, h, l);
    strbuf_printf(b, "q_%d = matmul(ln1_%d, wq_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "k_%d = matmul(ln1_%d, wk_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "v_%d = matmul(ln1_%d, wv_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "s_%d = matmul(q_%d, k_%d) [B, heads, T, T] cost=2*B*T*T*D\n", l, l, l);
    strbuf_printf(b, "p_%d = softmax(s_%d) [B, heads, T, T] cost=5*B*heads*T*T\n", l, l);
    strbuf_printf(b, "o_%d = matmul(p_%d, v_%d) [B, T, D] cost=2*B*T*T*D\n", l, l, l);
    strbuf_printf(b, "att_%d = matmul(o_%d, wo_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "r1_%d = add(%s, att_%d) [B, T, D]\n", l, h, l);
    strbuf_printf(b, "ln2_%d = layernorm(r1_%d, g2_%d) [B, T, D] cost=5*B*T*D\n", l, l, l);
    strbuf_printf(b, "f1_%d = matmul(ln2_%d, w1_%d) [B, T, F] cost=2*B*T*D*F\n", l, l, l);
    strbuf_printf(b, "f1b_%d = add(f1_%d, b1_%d) [B, T, F] @inline  # bias add fused into gelu\n", l, l, l);
    strbuf_printf(b, "a_%d = gelu(f1b_%d) [B, T, F] cost=8*B*T*F\n", l, l);
    strbuf_printf(b, "f2_%d = matmul(a_%d, w2_%d) [B, T, D] cost=2*B*T*F*D\n", l, l, l);
    strbuf_printf(b, "h_%d = add(r1_%d, f2_%d) [B, T, D]\n", l, l, l);
}

/* One block backward: dh is the gradient of the block's output, h its
 * input; leaves the input's gradient in dh_in. */
static void tf_backward(strbuf_t *b, int l, const char *h, const char *dh, const char *dh_in)
{
    strbuf_printf(b, "\n# block %d backward\n", l);
    strbuf_printf(b, "da_%d = matmul(%s, w2_%d) [B, T, F] cost=2*B*T*D*F\n", l, dh, l);
    strbuf_printf(b, "gw2_%d = matmul(a_%d, %s) [F, D] cost=2*B*T*F*D\n", l, l, dh);
    strbuf_printf(b, "df1_%d = gelu_grad(da_%d, f1b_%d) [B, T, F] cost=8*B*T*F\n", l, l, l);
    strbuf_printf(b, "gw1_%d = matmul(ln2_%d, df1_%d) [D, F] cost=2*B*T*D*F\n", l, l, l);
    strbuf_printf(b, "gb1_%d = sum(df1_%d) [F]\n", l, l);
    strbuf_printf(b, "dln2_%d = matmul(df1_%d, w1_%d) [B, T, D] cost=2*B*T*D*F\n", l, l, l);
    strbuf_printf(b, "gg2_%d = layernorm_param_grad(dln2_%d, r1_%d) [D] cost=3*B*T*D\n", l, l, l);
    strbuf_printf(b, "dr1_%d = layernorm_grad(dln2_%d, r1_%d, g2_%d) [B, T, D] cost=8*B*T*D\n", l, l, l, l);
    strbuf_printf(b, "dr1_%d += add(%s) [B, T, D]  # the residual\n", l, dh);
    strbuf_printf(b, "gwo_%d = matmul(o_%d, dr1_%d) [D, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "do_%d = matmul(dr1_%d, wo_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "dp_%d = matmul(do_%d, v_%d) [B, heads, T, T] cost=2*B*T*T*D\n", l, l, l);
    strbuf_printf(b, "dv_%d = matmul(p_%d, do_%d) [B, T, D] cost=2*B*T*T*D\n", l, l, l);
    strbuf_printf(b, "ds_%d = softmax_grad(dp_%d, p_%d) [B, heads, T, T] cost=5*B*heads*T*T\n", l, l, l);
    strbuf_printf(b, "dq_%d = matmul(ds_%d, k_%d) [B, T, D] cost=2*B*T*T*D\n", l, l, l);
    strbuf_printf(b, "dk_%d = matmul(ds_%d, q_%d) [B, T, D] cost=2*B*T*T*D\n", l, l, l);
    strbuf_printf(b, "gwq_%d = matmul(ln1_%d, dq_%d) [D, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "gwk_%d = matmul(ln1_%d, dk_%d) [D, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "gwv_%d = matmul(ln1_%d, dv_%d) [D, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "dln1_%d = matmul(dq_%d, wq_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "dln1_%d += matmul(dk_%d, wk_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "dln1_%d += matmul(dv_%d, wv_%d) [B, T, D] cost=2*B*T*D*D\n", l, l, l);
    strbuf_printf(b, "gg1_%d = layernorm_param_grad(dln1_%d, %s) [D] cost=3*B*T*D\n", l, l, h);
    strbuf_printf(b, "%s = layernorm_grad(dln1_%d, %s, g1_%d) [B, T, D] cost=8*B*T*D\n", dh_in, l, h, l);
    strbuf_printf(b, "%s += add(dr1_%d) [B, T, D]  # the residual\n", dh_in, l);
    /* the optimizer updates this block as soon as its gradients are done */
    static const char *params[] = { "g1", "wq", "wk", "wv", "wo", "g2", "w1", "b1", "w2" };
    static const char *shapes[] = { "[D]", "[D, D]", "[D, D]", "[D, D]", "[D, D]", "[D]", "[D, F]", "[F]", "[F, D]" };
    for (int k = 0; k < 9; k++)
        strbuf_printf(b, "%s_%d_new = adam(%s_%d, g%s_%d) %s cost=10*%s @output\n", params[k], l, params[k], l,
                      params[k], l, shapes[k],
                      k == 0 || k == 5 ? "D" : k == 7 ? "F" : k == 6 || k == 8 ? "D*F" : "D*D");
}

static void gen_transformer(strbuf_t *b, int layers)
{
    strbuf_printf(b, "input tokens [B, T] i32\ninput labels [B, T] i32\n");
    strbuf_printf(b, "param wemb [V, D]\nparam gf [D]\n");
    for (int l = 0; l < layers; l++)
        strbuf_printf(b, "param g1_%d [D]\nparam wq_%d [D, D]\nparam wk_%d [D, D]\nparam wv_%d [D, D]\n"
                         "param wo_%d [D, D]\nparam g2_%d [D]\nparam w1_%d [D, F]\nparam b1_%d [F]\n"
                         "param w2_%d [F, D]\n", l, l, l, l, l, l, l, l, l);
    strbuf_printf(b, "\nx = embed(tokens, wemb) [B, T, D]\n");
    char h[32] = "x";
    for (int l = 0; l < layers; l++) {
        tf_forward(b, l, h);
        snprintf(h, sizeof h, "h_%d", l);
    }
    strbuf_printf(b, "\n# head and loss\n");
    strbuf_printf(b, "hf = layernorm(%s, gf) [B, T, D] cost=5*B*T*D @pinned  # probed from outside\n", h);
    strbuf_printf(b, "logits = matmul(hf, wemb) [B, T, V] cost=2*B*T*D*V\n");
    strbuf_printf(b, "loss = cross_entropy(logits, labels) [] cost=4*B*T*V @output\n");
    strbuf_printf(b, "dlogits = cross_entropy_grad(logits, labels) [B, T, V] cost=4*B*T*V\n");
    strbuf_printf(b, "gwemb = matmul(dlogits, hf) [V, D] cost=2*B*T*D*V\n");
    strbuf_printf(b, "dhf = matmul(dlogits, wemb) [B, T, D] cost=2*B*T*D*V\n");
    strbuf_printf(b, "ggf = layernorm_param_grad(dhf, %s) [D] cost=3*B*T*D\n", h);
    strbuf_printf(b, "gf_new = adam(gf, ggf) [D] cost=10*D @output\n");
    char dh[32];
    snprintf(dh, sizeof dh, "dh_%d", layers - 1);
    strbuf_printf(b, "%s = layernorm_grad(dhf, %s, gf) [B, T, D] cost=8*B*T*D\n", layers ? dh : "dx", h);
    for (int l = layers - 1; l >= 0; l--) {
        char in[32], din[32];
        snprintf(in, sizeof in, l ? "h_%d" : "x", l - 1);
        snprintf(din, sizeof din, l ? "dh_%d" : "dx", l - 1);
        snprintf(dh, sizeof dh, "dh_%d", l);
        tf_backward(b, l, in, dh, din);
    }
    strbuf_printf(b, "\n# the embedding is tied: its gradient accumulates\n");
    strbuf_printf(b, "gwemb += embed_grad(dx, tokens) [V, D] cost=B*T*D\n");
    strbuf_printf(b, "wemb_new = adam(wemb, gwemb) [V, D] cost=10*V*D @output\n");
}

/* ---- resnet ------------------------------------------------------------------ */

/* Stage s of 4: channels C*2^s, size H/2^s. */
static void rn_dims(char *buf, size_t n, int s)
{
    snprintf(buf, n, "[B, C*%d, H/%d, H/%d]", 1 << s, 1 << s, 1 << s);
}

static void gen_resnet(strbuf_t *b, int layers)
{
    int per = layers / 4, extra = layers % 4;
    strbuf_printf(b, "input img [B, 3, H*4, H*4]\ninput labels [B] i32\n");
    strbuf_printf(b, "param w_stem [C, 3, 7, 7]\nparam g_stem [C]\nparam wfc [C*8, K]\n");
    int blk = 0;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < per + (s < extra); i++, blk++) {
            int cin = (i == 0 && s > 0) ? 1 << (s - 1) : 1 << s, cout = 1 << s;
            strbuf_printf(b, "param w1_%d [C*%d, C*%d, 3, 3]\nparam g1_%d [C*%d]\n", blk, cout, cin, blk, cout);
            strbuf_printf(b, "param w2_%d [C*%d, C*%d, 3, 3]\nparam g2_%d [C*%d]\n", blk, cout, cout, blk, cout);
            if (i == 0 && s > 0)
                strbuf_printf(b, "param wd_%d [C*%d, C*%d, 1, 1]\nparam gd_%d [C*%d]\n", blk, cout, cin, blk, cout);
        }
    strbuf_printf(b, "\nstem = conv7x7(img, w_stem) [B, C, H, H] cost=2*B*C*3*49*H*H\n");
    strbuf_printf(b, "stem_bn = batchnorm(stem, g_stem) [B, C, H, H] cost=4*B*C*H*H @inline  # fused into relu\n");
    strbuf_printf(b, "a_in = relu(stem_bn) [B, C, H, H]\n");
    char in[32] = "a_in", d[64], din[64];
    int nblocks = blk;
    int *stage_of = malloc((size_t)(nblocks ? nblocks : 1) * sizeof *stage_of);
    int *first = malloc((size_t)(nblocks ? nblocks : 1) * sizeof *first);
    char (*inputs)[32] = malloc((size_t)(nblocks ? nblocks : 1) * sizeof *inputs);
    if (!stage_of || !first || !inputs) {
        b->oom = true;
        free(stage_of);
        free(first);
        free(inputs);
        return;
    }
    blk = 0;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < per + (s < extra); i++, blk++) {
            int cin = (i == 0 && s > 0) ? 1 << (s - 1) : 1 << s, cout = 1 << s;
            stage_of[blk] = s;
            first[blk] = i == 0 && s > 0;
            snprintf(inputs[blk], sizeof inputs[blk], "%s", in);
            rn_dims(d, sizeof d, s);
            strbuf_printf(b, "\n# block %d (stage %d)\n", blk, s);
            strbuf_printf(b, "c1_%d = conv3x3(%s, w1_%d) %s cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", blk, in, blk, d, cout,
                          cin, 1 << s, 1 << s);
            strbuf_printf(b, "n1_%d = batchnorm(c1_%d, g1_%d) %s cost=4*B*C*%d*(H/%d)*(H/%d) @inline\n", blk, blk, blk, d,
                          cout, 1 << s, 1 << s);
            strbuf_printf(b, "r1_%d = relu(n1_%d) %s\n", blk, blk, d);
            strbuf_printf(b, "c2_%d = conv3x3(r1_%d, w2_%d) %s cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", blk, blk, blk, d,
                          cout, cout, 1 << s, 1 << s);
            strbuf_printf(b, "n2_%d = batchnorm(c2_%d, g2_%d) %s cost=4*B*C*%d*(H/%d)*(H/%d)\n", blk, blk, blk, d, cout,
                          1 << s, 1 << s);
            const char *shortcut = in;
            char sc[32];
            if (first[blk]) {
                strbuf_printf(b, "sc_%d = conv1x1(%s, wd_%d) %s cost=2*B*C*%d*C*%d*(H/%d)*(H/%d)\n", blk, in, blk, d,
                              cout, cin, 1 << s, 1 << s);
                strbuf_printf(b, "nd_%d = batchnorm(sc_%d, gd_%d) %s cost=4*B*C*%d*(H/%d)*(H/%d)\n", blk, blk, blk, d,
                              cout, 1 << s, 1 << s);
                snprintf(sc, sizeof sc, "nd_%d", blk);
                shortcut = sc;
            }
            strbuf_printf(b, "s_%d = add(n2_%d, %s) %s\n", blk, blk, shortcut, d);
            strbuf_printf(b, "out_%d = relu(s_%d) %s\n", blk, blk, d);
            snprintf(in, sizeof in, "out_%d", blk);
        }
    strbuf_printf(b, "\n# head and loss\n");
    strbuf_printf(b, "pool = avgpool(%s) [B, C*8] cost=B*C*8*(H/8)*(H/8)\n", in);
    strbuf_printf(b, "logits = matmul(pool, wfc) [B, K] cost=2*B*C*8*K @pinned  # observed for accuracy\n");
    strbuf_printf(b, "loss = cross_entropy(logits, labels) [] cost=4*B*K @output\n");
    strbuf_printf(b, "dlogits = cross_entropy_grad(logits, labels) [B, K] cost=4*B*K\n");
    strbuf_printf(b, "gwfc = matmul(pool, dlogits) [C*8, K] cost=2*B*C*8*K\n");
    strbuf_printf(b, "wfc_new = sgd(wfc, gwfc) [C*8, K] cost=2*C*8*K @output\n");
    strbuf_printf(b, "dpool = matmul(dlogits, wfc) [B, C*8] cost=2*B*C*8*K\n");
    rn_dims(d, sizeof d, 3);
    char dout[32];
    snprintf(dout, sizeof dout, "dout_%d", nblocks - 1);
    strbuf_printf(b, "%s = avgpool_grad(dpool) %s\n", nblocks ? dout : "da_in", d);
    for (int k = nblocks - 1; k >= 0; k--) {
        int s = stage_of[k];
        rn_dims(d, sizeof d, s);
        int f = 1 << s;
        snprintf(dout, sizeof dout, "dout_%d", k);
        strbuf_printf(b, "\n# block %d backward\n", k);
        strbuf_printf(b, "ds_%d = relu_grad(%s, out_%d) %s\n", k, dout, k, d);
        strbuf_printf(b, "dc2_%d = batchnorm_grad(ds_%d, c2_%d, g2_%d) %s cost=8*B*C*%d*(H/%d)*(H/%d)\n", k, k, k, k, d,
                      f, f, f);
        strbuf_printf(b, "gg2_%d = batchnorm_param_grad(ds_%d, c2_%d) [C*%d]\n", k, k, k, f);
        strbuf_printf(b, "gw2_%d = conv_wgrad(r1_%d, dc2_%d) [C*%d, C*%d, 3, 3] cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", k,
                      k, k, f, f, f, f, f, f);
        strbuf_printf(b, "dr1_%d = conv_dgrad(dc2_%d, w2_%d) %s cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", k, k, k, d, f, f,
                      f, f);
        strbuf_printf(b, "dn1_%d = relu_grad(dr1_%d, r1_%d) %s\n", k, k, k, d);
        strbuf_printf(b, "dc1_%d = batchnorm_grad(dn1_%d, c1_%d, g1_%d) %s cost=8*B*C*%d*(H/%d)*(H/%d)\n", k, k, k, k, d,
                      f, f, f);
        strbuf_printf(b, "gg1_%d = batchnorm_param_grad(dn1_%d, c1_%d) [C*%d]\n", k, k, k, f);
        int cin = first[k] ? f / 2 : f;
        const char *pin = inputs[k];
        strbuf_printf(b, "gw1_%d = conv_wgrad(%s, dc1_%d) [C*%d, C*%d, 3, 3] cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", k,
                      pin, k, f, cin, f, cin, f, f);
        int ps = first[k] ? s - 1 : s;
        rn_dims(din, sizeof din, ps);
        char dprev[32];
        if (k == 0)
            snprintf(dprev, sizeof dprev, "da_in");
        else
            snprintf(dprev, sizeof dprev, "dout_%d", k - 1);
        strbuf_printf(b, "%s = conv_dgrad(dc1_%d, w1_%d) %s cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", dprev, k, k, din, f,
                      cin, f, f);
        if (first[k]) {
            strbuf_printf(b, "dsc_%d = batchnorm_grad(ds_%d, sc_%d, gd_%d) %s cost=8*B*C*%d*(H/%d)*(H/%d)\n", k, k, k, k,
                          d, f, f, f);
            strbuf_printf(b, "ggd_%d = batchnorm_param_grad(ds_%d, sc_%d) [C*%d]\n", k, k, k, f);
            strbuf_printf(b, "gwd_%d = conv_wgrad(%s, dsc_%d) [C*%d, C*%d, 1, 1] cost=2*B*C*%d*C*%d*(H/%d)*(H/%d)\n", k,
                          pin, k, f, cin, f, cin, f, f);
            strbuf_printf(b, "%s += conv_dgrad(dsc_%d, wd_%d) %s cost=2*B*C*%d*C*%d*(H/%d)*(H/%d)\n", dprev, k, k, din,
                          f, cin, f, f);
            strbuf_printf(b, "wd_%d_new = sgd(wd_%d, gwd_%d) [C*%d, C*%d, 1, 1] @output\n", k, k, k, f, cin);
            strbuf_printf(b, "gd_%d_new = sgd(gd_%d, ggd_%d) [C*%d] @output\n", k, k, k, f);
        } else {
            strbuf_printf(b, "%s += add(ds_%d) %s  # the identity shortcut\n", dprev, k, din);
        }
        strbuf_printf(b, "w1_%d_new = sgd(w1_%d, gw1_%d) [C*%d, C*%d, 3, 3] @output\n", k, k, k, f, cin);
        strbuf_printf(b, "g1_%d_new = sgd(g1_%d, gg1_%d) [C*%d] @output\n", k, k, k, f);
        strbuf_printf(b, "w2_%d_new = sgd(w2_%d, gw2_%d) [C*%d, C*%d, 3, 3] @output\n", k, k, k, f, f);
        strbuf_printf(b, "g2_%d_new = sgd(g2_%d, gg2_%d) [C*%d] @output\n", k, k, k, f);
    }
    strbuf_printf(b, "\n# stem backward\n");
    strbuf_printf(b, "dstem = relu_grad(da_in, a_in) [B, C, H, H]\n");
    strbuf_printf(b, "dstem_c = batchnorm_grad(dstem, stem, g_stem) [B, C, H, H] cost=8*B*C*H*H\n");
    strbuf_printf(b, "gg_stem = batchnorm_param_grad(dstem, stem) [C]\n");
    strbuf_printf(b, "gw_stem = conv_wgrad(img, dstem_c) [C, 3, 7, 7] cost=2*B*C*3*49*H*H\n");
    strbuf_printf(b, "w_stem_new = sgd(w_stem, gw_stem) [C, 3, 7, 7] @output\n");
    strbuf_printf(b, "g_stem_new = sgd(g_stem, gg_stem) [C] @output\n");
    free(stage_of);
    free(first);
    free(inputs);
}

/* ---- unet -------------------------------------------------------------------- */

static void gen_unet(strbuf_t *b, int levels)
{
    char d[64];
    strbuf_printf(b, "input img [B, 3, H, H]\ninput mask [B, 1, H, H]\n");
    for (int i = 0; i <= levels; i++)
        strbuf_printf(b, "param we_%d [C*%d, C*%d, 3, 3]\n", i, 1 << i, i ? 1 << (i - 1) : 1);
    for (int i = levels - 1; i >= 0; i--)
        strbuf_printf(b, "param wd_%d [C*%d, C*%d, 3, 3]\n", i, 1 << i, 3 << i);
    strbuf_printf(b, "param wout [1, C, 1, 1]\nparam win [C, 3, 3, 3]\n");
    strbuf_printf(b, "\nx0 = conv3x3(img, win) [B, C, H, H] cost=2*B*C*3*9*H*H\n");
    const char *prev = "x0";
    char pbuf[32];
    for (int i = 0; i <= levels; i++) {
        int f = 1 << i;
        snprintf(d, sizeof d, "[B, C*%d, H/%d, H/%d]", f, f, f);
        strbuf_printf(b, "\n# encoder level %d\n", i);
        strbuf_printf(b, "e_%d = conv3x3(%s, we_%d) %s cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", i, prev, i, d, f,
                      i ? f / 2 : 1, f, f);
        strbuf_printf(b, "a_%d = relu(e_%d) %s%s\n", i, i, d, i < levels ? "  # a skip: lives until the decoder" : "");
        if (i < levels) {
            strbuf_printf(b, "p_%d = maxpool(a_%d) [B, C*%d, H/%d, H/%d]\n", i, i, f, 2 * f, 2 * f);
            snprintf(pbuf, sizeof pbuf, "p_%d", i);
            prev = pbuf;
        }
    }
    char up[32];
    snprintf(up, sizeof up, "a_%d", levels);
    for (int i = levels - 1; i >= 0; i--) {
        int f = 1 << i;
        snprintf(d, sizeof d, "[B, C*%d, H/%d, H/%d]", f, f, f);
        strbuf_printf(b, "\n# decoder level %d\n", i);
        strbuf_printf(b, "u_%d = upsample(%s) [B, C*%d, H/%d, H/%d]\n", i, up, 2 * f, f, f);
        strbuf_printf(b, "cat_%d = concat(u_%d, a_%d) [B, C*%d, H/%d, H/%d] @inline  # fused into the conv\n", i, i, i,
                      3 * f, f, f);
        strbuf_printf(b, "dc_%d = conv3x3(cat_%d, wd_%d) %s cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", i, i, i, d, f, 3 * f,
                      f, f);
        strbuf_printf(b, "d_%d = relu(dc_%d) %s\n", i, i, d);
        snprintf(up, sizeof up, "d_%d", i);
    }
    strbuf_printf(b, "\n# head and loss\n");
    strbuf_printf(b, "logit = conv1x1(d_0, wout) [B, 1, H, H] cost=2*B*C*H*H @pinned  # the predicted mask\n");
    strbuf_printf(b, "loss = bce(logit, mask) [] cost=4*B*H*H @output\n");
    strbuf_printf(b, "dlogit = bce_grad(logit, mask) [B, 1, H, H] cost=4*B*H*H\n");
    strbuf_printf(b, "gwout = conv_wgrad(d_0, dlogit) [1, C, 1, 1] cost=2*B*C*H*H\n");
    strbuf_printf(b, "wout_new = sgd(wout, gwout) [1, C, 1, 1] @output\n");
    strbuf_printf(b, "dd_0 = conv_dgrad(dlogit, wout) [B, C, H, H] cost=2*B*C*H*H\n");
    for (int i = 0; i < levels; i++) {
        int f = 1 << i;
        snprintf(d, sizeof d, "[B, C*%d, H/%d, H/%d]", f, f, f);
        strbuf_printf(b, "\n# decoder level %d backward\n", i);
        strbuf_printf(b, "ddc_%d = relu_grad(dd_%d, d_%d) %s\n", i, i, i, d);
        strbuf_printf(b, "gwd_%d = conv_wgrad(cat_%d, ddc_%d) [C*%d, C*%d, 3, 3] cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n",
                      i, i, i, f, 3 * f, f, 3 * f, f, f);
        strbuf_printf(b, "wd_%d_new = sgd(wd_%d, gwd_%d) [C*%d, C*%d, 3, 3] @output\n", i, i, i, f, 3 * f);
        strbuf_printf(b, "dcat_%d = conv_dgrad(ddc_%d, wd_%d) [B, C*%d, H/%d, H/%d] cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n",
                      i, i, i, 3 * f, f, f, f, 3 * f, f, f);
        strbuf_printf(b, "da_%d = slice(dcat_%d) %s  # the skip's share\n", i, i, d);
        strbuf_printf(b, "du_%d = slice(dcat_%d) [B, C*%d, H/%d, H/%d]\n", i, i, 2 * f, f, f);
        strbuf_printf(b, "dd_%d = upsample_grad(du_%d) [B, C*%d, H/%d, H/%d]\n", i + 1, i, 2 * f, 2 * f, 2 * f);
    }
    for (int i = levels; i >= 0; i--) {
        int f = 1 << i;
        snprintf(d, sizeof d, "[B, C*%d, H/%d, H/%d]", f, f, f);
        strbuf_printf(b, "\n# encoder level %d backward\n", i);
        if (i == levels)
            strbuf_printf(b, "da_%d = add(dd_%d) %s\n", i, i, d);
        else
            strbuf_printf(b, "da_%d += maxpool_grad(dp_%d, a_%d) %s\n", i, i, i, d);
        strbuf_printf(b, "de_%d = relu_grad(da_%d, a_%d) %s\n", i, i, i, d);
        char input[32];
        snprintf(input, sizeof input, i ? "p_%d" : "x0", i - 1);
        strbuf_printf(b, "gwe_%d = conv_wgrad(%s, de_%d) [C*%d, C*%d, 3, 3] cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n", i,
                      input, i, f, i ? f / 2 : 1, f, i ? f / 2 : 1, f, f);
        strbuf_printf(b, "we_%d_new = sgd(we_%d, gwe_%d) [C*%d, C*%d, 3, 3] @output\n", i, i, i, f, i ? f / 2 : 1);
        if (i > 0)
            strbuf_printf(b, "dp_%d = conv_dgrad(de_%d, we_%d) [B, C*%d, H/%d, H/%d] cost=2*B*C*%d*C*%d*9*(H/%d)*(H/%d)\n",
                          i - 1, i, i, f / 2, f, f, f, f / 2, f, f);
    }
    strbuf_printf(b, "dx0 = conv_dgrad(de_0, we_0) [B, C, H, H] cost=2*B*C*C*9*H*H\n");
    strbuf_printf(b, "gwin = conv_wgrad(img, dx0) [C, 3, 3, 3] cost=2*B*C*3*9*H*H\n");
    strbuf_printf(b, "win_new = sgd(win, gwin) [C, 3, 3, 3] @output\n");
}

/* ---- chain and mlp ------------------------------------------------------------- */

/* The checkpointing case of Chen et al.: N identical layers; the gradient
 * is one buffer accumulated in place, reading each activation on the way
 * back, so every activation lives from its layer to its backward. */
static void gen_chain(strbuf_t *b, int n)
{
    strbuf_printf(b, "input x0 [B, D]\n");
    for (int i = 1; i <= n; i++)
        strbuf_printf(b, "x%d = layer(x%d) [B, D] cost=2*B*D*D\n", i, i - 1);
    strbuf_printf(b, "loss = sum(x%d) [] @output\n", n);
    strbuf_printf(b, "d = loss_grad(loss, x%d) [B, D] @output\n", n);
    for (int i = n - 1; i >= 0; i--)
        strbuf_printf(b, "d += layer_grad(d, x%d) [B, D] cost=4*B*D*D\n", i);
}

static void gen_mlp(strbuf_t *b, int layers)
{
    strbuf_printf(b, "input x [B, D]\ninput lbl [B, C]\n");
    for (int l = 0; l < layers; l++)
        strbuf_printf(b, "param w%d [%s, H]\nparam b%d [H]\n", l, l ? "H" : "D", l);
    strbuf_printf(b, "param wo [H, C]\n");
    const char *in = "x";
    char ibuf[32];
    for (int l = 0; l < layers; l++) {
        strbuf_printf(b, "h%d = matmul(%s, w%d) [B, H] cost=2*B*%s*H\n", l, in, l, l ? "H" : "D");
        strbuf_printf(b, "hb%d = add(h%d, b%d) [B, H] @inline  # fused into relu\n", l, l, l);
        strbuf_printf(b, "a%d = relu(hb%d) [B, H]\n", l, l);
        snprintf(ibuf, sizeof ibuf, "a%d", l);
        in = ibuf;
    }
    strbuf_printf(b, "y = matmul(%s, wo) [B, C] cost=2*B*H*C\n", in);
    strbuf_printf(b, "p = softmax(y) [B, C]\nloss = xent(p, lbl) [] @output\ndy = sub(p, lbl) [B, C]\n");
    strbuf_printf(b, "gwo = matmul(%s, dy) [H, C] cost=2*B*H*C\n", in);
    strbuf_printf(b, "wo_new = sgd(wo, gwo) [H, C] @output\n");
    strbuf_printf(b, "da%d = matmul(dy, wo) [B, H] cost=2*B*H*C\n", layers - 1);
    for (int l = layers - 1; l >= 0; l--) {
        strbuf_printf(b, "dh%d = relu_grad(da%d, hb%d) [B, H]\n", l, l, l);
        strbuf_printf(b, "gw%d = matmul(%s, dh%d) [%s, H] cost=2*B*%s*H\n", l, l ? (snprintf(ibuf, sizeof ibuf, "a%d", l - 1), ibuf) : "x", l,
                      l ? "H" : "D", l ? "H" : "D");
        strbuf_printf(b, "gb%d = sum(dh%d) [H]\n", l, l);
        if (l)
            strbuf_printf(b, "da%d = matmul(dh%d, w%d) [B, H] cost=2*B*H*H\n", l - 1, l, l);
        strbuf_printf(b, "w%d_new = sgd(w%d, gw%d) [%s, H] @output\n", l, l, l, l ? "H" : "D");
        strbuf_printf(b, "b%d_new = sgd(b%d, gb%d) [H] @output\n", l, l, l);
    }
}

/* ---- driver ------------------------------------------------------------------ */

int gen_routine(const gen_options_t *o, char **text, rs_error_t *err)
{
    *text = NULL;
    if ((unsigned)o->kind >= GEN_COUNT)
        return error_set(err, RS_EINPUT, "gen", 0, 0, "unknown kind");
    const kind_info_t *k = &KINDS[o->kind];
    int32_t layers = o->layers < 0 ? k->layers : o->layers;
    if (layers < 1 || layers > k->max_layers)
        return error_set(err, RS_EINPUT, "--layers", 0, 0, "%s takes 1 to %d layers, not %d", k->name,
                         (int)k->max_layers, (int)layers);
    const char *dt = o->dtype ? o->dtype : "f32";
    bool dt_ok = false;
    for (int t = 0; t < DT_COUNT; t++)
        dt_ok |= strcmp(dtype_name((dtype_t)t), dt) == 0;
    if (!dt_ok)
        return error_set(err, RS_EINPUT, "--dtype", 0, 0, "unknown type '%s' (u8 i8 f16 bf16 f32 i32 f64 i64)", dt);
    int64_t values[8];
    int nb = 0;
    for (; nb < 8 && k->binds[nb].name; nb++)
        values[nb] = k->binds[nb].value;
    for (int i = 0; i < o->n_binds; i++) {
        const char *kv = o->binds[i], *eq = strchr(kv, '=');
        int j = 0;
        for (; eq && j < nb; j++)
            if (strlen(k->binds[j].name) == (size_t)(eq - kv) && strncmp(k->binds[j].name, kv, (size_t)(eq - kv)) == 0)
                break;
        char *end = NULL;
        long long v = eq ? strtoll(eq + 1, &end, 10) : 0;
        if (!eq || j == nb || !end || *end || end == eq + 1 || v < 1)
            return error_set(err, RS_EINPUT, "--bind", 0, 0, "expected NAME=POSITIVE_INT with NAME one of %s, found '%s'",
                             k->binds_text, kv);
        values[j] = v;
    }
    strbuf_t b;
    strbuf_init(&b);
    strbuf_printf(&b, "# %s training step (forward, backward, parameter update), %d layer%s;\n", k->name,
                  (int)layers, layers == 1 ? "" : "s");
    strbuf_printf(&b, "# What to look at: %s.\n", k->look);
    strbuf_printf(&b, "# Generated by `rematscope gen %s --layers %d", k->name, (int)layers);
    for (int i = 0; i < o->n_binds; i++)
        strbuf_printf(&b, " --bind %s", o->binds[i]);
    if (o->dtype)
        strbuf_printf(&b, " --dtype %s", o->dtype);
    strbuf_printf(&b, "`.\n");
    strbuf_printf(&b, "routine %s_%d\nbind", k->name, (int)layers);
    for (int j = 0; j < nb; j++)
        strbuf_printf(&b, " %s=%lld", k->binds[j].name, (long long)values[j]);
    strbuf_printf(&b, "\ndtype %s\n", dt);
    switch (o->kind) {
    case GEN_TRANSFORMER: gen_transformer(&b, layers); break;
    case GEN_RESNET: gen_resnet(&b, layers); break;
    case GEN_UNET: gen_unet(&b, layers); break;
    case GEN_CHAIN: gen_chain(&b, layers); break;
    case GEN_MLP: gen_mlp(&b, layers); break;
    default: break;
    }
    if (b.oom) {
        strbuf_free(&b);
        return error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory generating a routine");
    }
    *text = b.s;
    return RS_OK;
}
