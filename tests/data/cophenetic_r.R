# Reference values for tests/test_cophenetic.py: dendextend's cophenetic correlation and
# Baker's gamma of hclust trees of the data in cophenetic_r.json ("x"), written back there.
# Run from the repository root: Rscript tests/data/cophenetic_r.R
suppressMessages({library(dendextend); library(jsonlite)})
ref <- fromJSON("tests/data/cophenetic_r.json")
x <- as.matrix(ref$x)
d <- dist(x)
trees <- list(average = hclust(d, "average"), complete = hclust(d, "complete"),
              single = hclust(d, "single"), ward = hclust(d, "ward.D2"))
pairs <- list(c("average", "complete"), c("ward", "single"), c("complete", "ward"))
out <- list()
for (p in pairs) {
  a <- as.dendrogram(trees[[p[1]]]); b <- as.dendrogram(trees[[p[2]]])
  out[[paste(p, collapse = "_")]] <- list(
    pearson = cor_cophenetic(a, b, method_coef = "pearson"),
    spearman = cor_cophenetic(a, b, method_coef = "spearman"),
    kendall = cor_cophenetic(a, b, method_coef = "kendall"),
    bakers_gamma = cor_bakers_gamma(a, b))
}
ref$values <- out
ref$versions <- list(R = paste(R.version$major, R.version$minor, sep = "."),
                     dendextend = as.character(packageVersion("dendextend")))
write(toJSON(ref, digits = NA, auto_unbox = TRUE, pretty = TRUE), "tests/data/cophenetic_r.json")
