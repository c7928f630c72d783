# The reference values of tests/test_cluster_stability.py: fpc::clusterboot's per-cluster mean
# Jaccard (bootstrap, fpc's defaults otherwise) of k-means and Ward with k = 3 on iris and
# wine, read from the package's own data files (data/iris.csv, data/wine.csv: the data that
# ca.load_dataset gives; wine standardised, by scale(), as the test does).
#
#   k-means: kmeansCBI(k = 3, runs = 10): the best of 10 random starts of kmeans() (fpc's
#            default is one start; ten make R's Hartigan-Wong and scikit-learn's KMeans(n_init
#            = 10) land on the same optimum as a rule, so the two clusterers compared are the
#            same method, not two local searches).
#   Ward:    hclustCBI(k = 3, method = "ward.D2", scaling = FALSE): hclust's Ward on Euclidean
#            distances (scikit-learn's AgglomerativeClustering(linkage = "ward")); scaling =
#            FALSE because hclustCBI would otherwise standardise every resample anew.
#
# Run from the repository's root: Rscript tests/data/clusterboot_r.R
# It writes tests/data/clusterboot_r.json.

library(fpc)
library(jsonlite)

B <- 500
read <- function(name) {
  d <- read.csv(file.path("data", paste0(name, ".csv")), check.names = FALSE)
  as.matrix(d[, setdiff(names(d), "class")])
}
datasets <- list(iris = read("iris"), wine = scale(read("wine")))
methods <- list(
  kmeans = list(fun = kmeansCBI, args = list(k = 3, runs = 10)),
  ward = list(fun = hclustCBI, args = list(k = 3, method = "ward.D2", scaling = FALSE))
)
seeds <- c(iris.kmeans = 101, iris.ward = 102, wine.kmeans = 103, wine.ward = 104)

cases <- list()
for (dname in names(datasets)) {
  for (mname in names(methods)) {
    key <- paste(dname, mname, sep = ".")
    m <- methods[[mname]]
    cb <- do.call(clusterboot, c(list(datasets[[dname]], B = B, bootmethod = "boot",
                                      clustermethod = m$fun, seed = seeds[[key]],
                                      count = FALSE), m$args))
    cases[[key]] <- list(
      data = dname, method = mname, B = B, seed = seeds[[key]],
      call = paste0("clusterboot(", dname, ", B = ", B, ", bootmethod = \"boot\", ",
                    "clustermethod = ", if (mname == "kmeans") "kmeansCBI, k = 3, runs = 10"
                    else "hclustCBI, k = 3, method = \"ward.D2\", scaling = FALSE",
                    ", seed = ", seeds[[key]], ")"),
      partition = as.integer(cb$partition),
      size = as.integer(table(factor(cb$partition, levels = seq_len(cb$nc)))),
      mean = cb$bootmean,
      sd = apply(cb$bootresult, 1, sd),
      dissolved = cb$bootbrd,
      recovered = cb$bootrecover
    )
  }
}

out <- list(
  R = R.version.string,
  fpc = as.character(packageVersion("fpc")),
  note = paste("fpc::clusterboot, bootstrap (multipleboot = FALSE), dissolution = 0.5,",
               "recover = 0.75; sd over the B resamples (the s.e. of a mean is sd / sqrt(B));",
               "partition: the original clustering (clusters 1..3), for matching clusters"),
  cases = cases
)
write_json(out, file.path("tests", "data", "clusterboot_r.json"), auto_unbox = TRUE,
           digits = 10, pretty = TRUE)
