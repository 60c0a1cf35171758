/// The built-in string tables, one per language. A translation keeps every `{name}` of the English pattern.
extension BuiltInStrings {
    /// English, the fallback for every missing entry.
    package static let english = BuiltInStrings(
        language: "en", decimalSeparator: ".", localeIdentifier: "en_US_POSIX",
        table: [
            .tip: "Tip", .bulletChart: "Bullet chart", .gaugeChart: "Gauge", .againstTarget: "{name} {value} against a target of {target}",
            .aboveTarget: "above the target", .belowTarget: "below the target", .onTarget: "on the target",
            .inRange: "in the range {range}", .measure: "Measure", .target: "Target", .ranges: "Ranges", .total: "Total",
            .subtotal: "Subtotal", .weekOf: "Week of {date}", .warning: "Warning", .good: "Good",
            .digitalSignature: "Digital signature", .alert: "Alert", .noData: "No data", .continued: "continued",
            .pageFooter: "Page {page} of {pages}",
            .data: "Data", .table: "Table", .chart: "Chart", .report: "Report",
            .category: "Category", .segment: "Segment", .value: "Value", .share: "Share", .ring: "Ring", .progress: "Progress",
            .barChart: "Bar chart", .stackedBarChart: "Stacked bar chart", .lineChart: "Line chart", .scatterChart: "Scatter chart",
            .pieChart: "Pie chart", .donutChart: "Donut chart", .ringChart: "Ring chart", .rangeChart: "Range chart",
            .categories: "{count} categories, from {first} to {last}", .oneCategory: "1 category {name}",
            .points: "{count} points", .onePoint: "1 point", .fromTo: "{name} from {low} to {high}",
            .lowHigh: "{name}: lowest value {low}, highest value {high}", .otherSegments: "{count} other segments with {percent}% together",
            .at: "at {x}",
            .missing: "{count} missing", .valuesBeyond: "{threshold}: {count} values",
            .oneValueBeyond: "{threshold}: 1 value", .aboveValue: "above {value}", .belowValue: "below {value}",
            .outsideRange: "outside {low}–{high}",
        ])

    /// French: decimal comma.
    package static let french = BuiltInStrings(
        language: "fr", decimalSeparator: ",", localeIdentifier: "fr_FR",
        table: [
            .tip: "Conseil", .bulletChart: "Graphique à puces", .gaugeChart: "Jauge",
            .againstTarget: "{name} {value} pour un objectif de {target}", .aboveTarget: "au-dessus de l’objectif",
            .belowTarget: "en dessous de l’objectif", .onTarget: "à l’objectif", .inRange: "dans la plage {range}", .measure: "Mesure",
            .target: "Objectif", .ranges: "Plages", .total: "Total", .subtotal: "Sous-total", .weekOf: "Semaine du {date}",
            .warning: "Attention", .good: "Bon",
            .digitalSignature: "Signature numérique", .alert: "Alerte", .noData: "Aucune donnée", .continued: "suite",
            .pageFooter: "Page {page} sur {pages}", .data: "Données", .table: "Tableau", .chart: "Graphique", .report: "Rapport",
            .category: "Catégorie", .segment: "Segment", .value: "Valeur", .share: "Part", .ring: "Anneau", .progress: "Progression",
            .barChart: "Graphique à barres", .stackedBarChart: "Graphique à barres empilées", .lineChart: "Graphique linéaire",
            .scatterChart: "Nuage de points", .pieChart: "Graphique circulaire", .donutChart: "Graphique en anneau",
            .ringChart: "Graphique à anneaux", .rangeChart: "Graphique d’intervalles",
            .categories: "{count} catégories, de {first} à {last}", .oneCategory: "1 catégorie {name}",
            .points: "{count} points", .onePoint: "1 point", .fromTo: "{name} de {low} à {high}",
            .lowHigh: "{name} : valeur la plus basse {low}, la plus haute {high}",
            .otherSegments: "{count} autres segments, {percent}% au total", .at: "à {x}",
            .missing: "{count} manquantes", .valuesBeyond: "{threshold} : {count} valeurs",
            .oneValueBeyond: "{threshold} : 1 valeur", .aboveValue: "au-dessus de {value}", .belowValue: "en dessous de {value}",
            .outsideRange: "hors de {low}–{high}",
        ])

    /// German: decimal comma.
    package static let german = BuiltInStrings(
        language: "de", decimalSeparator: ",", localeIdentifier: "de_DE",
        table: [
            .tip: "Tipp", .bulletChart: "Bullet-Diagramm", .gaugeChart: "Tachodiagramm",
            .againstTarget: "{name} {value} bei einem Zielwert von {target}", .aboveTarget: "über dem Zielwert",
            .belowTarget: "unter dem Zielwert", .onTarget: "auf dem Zielwert", .inRange: "im Bereich {range}", .measure: "Messgröße",
            .target: "Zielwert", .ranges: "Bereiche", .total: "Summe", .subtotal: "Zwischensumme", .weekOf: "Woche vom {date}",
            .warning: "Achtung", .good: "Gut",
            .digitalSignature: "Digitale Signatur", .alert: "Warnung", .noData: "Keine Daten", .continued: "Fortsetzung",
            .pageFooter: "Seite {page} von {pages}", .data: "Daten", .table: "Tabelle", .chart: "Diagramm", .report: "Bericht",
            .category: "Kategorie", .segment: "Segment", .value: "Wert", .share: "Anteil", .ring: "Ring", .progress: "Fortschritt",
            .barChart: "Balkendiagramm", .stackedBarChart: "Gestapeltes Balkendiagramm", .lineChart: "Liniendiagramm",
            .scatterChart: "Streudiagramm", .pieChart: "Kreisdiagramm", .donutChart: "Ringdiagramm",
            .ringChart: "Fortschrittsringe", .rangeChart: "Bereichsdiagramm",
            .categories: "{count} Kategorien, von {first} bis {last}", .oneCategory: "1 Kategorie {name}",
            .points: "{count} Punkte", .onePoint: "1 Punkt", .fromTo: "{name} von {low} bis {high}",
            .lowHigh: "{name}: niedrigster Wert {low}, höchster Wert {high}",
            .otherSegments: "{count} weitere Segmente mit zusammen {percent}%", .at: "bei {x}",
            .missing: "{count} fehlend", .valuesBeyond: "{threshold}: {count} Werte",
            .oneValueBeyond: "{threshold}: 1 Wert", .aboveValue: "über {value}", .belowValue: "unter {value}",
            .outsideRange: "außerhalb von {low}–{high}",
        ])

    /// Spanish: decimal comma.
    package static let spanish = BuiltInStrings(
        language: "es", decimalSeparator: ",", localeIdentifier: "es_ES",
        table: [
            .tip: "Consejo", .bulletChart: "Gráfico de viñetas", .gaugeChart: "Indicador",
            .againstTarget: "{name} {value} frente a un objetivo de {target}", .aboveTarget: "por encima del objetivo",
            .belowTarget: "por debajo del objetivo", .onTarget: "en el objetivo", .inRange: "en el rango {range}", .measure: "Medida",
            .target: "Objetivo", .ranges: "Rangos", .total: "Total", .subtotal: "Subtotal", .weekOf: "Semana del {date}",
            .warning: "Atención", .good: "Bien",
            .digitalSignature: "Firma digital", .alert: "Alerta", .noData: "Sin datos", .continued: "continuación",
            .pageFooter: "Página {page} de {pages}", .data: "Datos", .table: "Tabla", .chart: "Gráfico", .report: "Informe",
            .category: "Categoría", .segment: "Segmento", .value: "Valor", .share: "Proporción", .ring: "Anillo", .progress: "Progreso",
            .barChart: "Gráfico de barras", .stackedBarChart: "Gráfico de barras apiladas", .lineChart: "Gráfico de líneas",
            .scatterChart: "Gráfico de dispersión", .pieChart: "Gráfico circular", .donutChart: "Gráfico de anillo",
            .ringChart: "Gráfico de anillos", .rangeChart: "Gráfico de rangos",
            .categories: "{count} categorías, de {first} a {last}", .oneCategory: "1 categoría {name}",
            .points: "{count} puntos", .onePoint: "1 punto", .fromTo: "{name} de {low} a {high}",
            .lowHigh: "{name}: valor más bajo {low}, valor más alto {high}",
            .otherSegments: "{count} segmentos más, con {percent}% en total", .at: "en {x}",
            .missing: "{count} ausentes", .valuesBeyond: "{threshold}: {count} valores",
            .oneValueBeyond: "{threshold}: 1 valor", .aboveValue: "por encima de {value}", .belowValue: "por debajo de {value}",
            .outsideRange: "fuera de {low}–{high}",
        ])

    /// Portuguese: decimal comma.
    package static let portuguese = BuiltInStrings(
        language: "pt", decimalSeparator: ",", localeIdentifier: "pt_PT",
        table: [
            .tip: "Dica", .bulletChart: "Gráfico de marcadores", .gaugeChart: "Medidor",
            .againstTarget: "{name} {value} face a uma meta de {target}", .aboveTarget: "acima da meta", .belowTarget: "abaixo da meta",
            .onTarget: "na meta", .inRange: "na faixa {range}", .measure: "Medida", .target: "Meta", .ranges: "Faixas", .total: "Total",
            .subtotal: "Subtotal", .weekOf: "Semana de {date}", .warning: "Atenção", .good: "Bom",
            .digitalSignature: "Assinatura digital", .alert: "Alerta", .noData: "Sem dados", .continued: "continuação",
            .pageFooter: "Página {page} de {pages}", .data: "Dados", .table: "Tabela", .chart: "Gráfico", .report: "Relatório",
            .category: "Categoria", .segment: "Segmento", .value: "Valor", .share: "Proporção", .ring: "Anel", .progress: "Progresso",
            .barChart: "Gráfico de barras", .stackedBarChart: "Gráfico de barras empilhadas", .lineChart: "Gráfico de linhas",
            .scatterChart: "Gráfico de dispersão", .pieChart: "Gráfico circular", .donutChart: "Gráfico de anel",
            .ringChart: "Gráfico de anéis", .rangeChart: "Gráfico de intervalos",
            .categories: "{count} categorias, de {first} a {last}", .oneCategory: "1 categoria {name}",
            .points: "{count} pontos", .onePoint: "1 ponto", .fromTo: "{name} de {low} a {high}",
            .lowHigh: "{name}: valor mais baixo {low}, valor mais alto {high}",
            .otherSegments: "{count} outros segmentos, com {percent}% no total", .at: "em {x}",
            .missing: "{count} em falta", .valuesBeyond: "{threshold}: {count} valores",
            .oneValueBeyond: "{threshold}: 1 valor", .aboveValue: "acima de {value}", .belowValue: "abaixo de {value}",
            .outsideRange: "fora de {low}–{high}",
        ])

    /// Arabic: right to left; Latin digits and a decimal point, as in most Arabic clinical documents.
    package static let arabic = BuiltInStrings(
        language: "ar", decimalSeparator: ".", isRightToLeft: true, localeIdentifier: "ar@numbers=latn",
        table: [
            .tip: "نصيحة", .bulletChart: "مخطط نقطي", .gaugeChart: "مقياس", .againstTarget: "{name} {value} مقابل هدف {target}",
            .aboveTarget: "فوق الهدف", .belowTarget: "دون الهدف", .onTarget: "عند الهدف", .inRange: "في النطاق {range}",
            .measure: "المقياس", .target: "الهدف", .ranges: "النطاقات", .total: "المجموع", .subtotal: "المجموع الفرعي",
            .weekOf: "أسبوع {date}", .warning: "تحذير", .good: "جيد",
            .digitalSignature: "توقيع رقمي", .alert: "تنبيه", .noData: "لا توجد بيانات", .continued: "تابع",
            .pageFooter: "صفحة {page} من {pages}", .data: "البيانات", .table: "جدول", .chart: "رسم بياني", .report: "تقرير",
            .category: "الفئة", .segment: "الجزء", .value: "القيمة", .share: "النسبة", .ring: "الحلقة", .progress: "التقدم",
            .barChart: "مخطط شريطي", .stackedBarChart: "مخطط شريطي مكدس", .lineChart: "مخطط خطي",
            .scatterChart: "مخطط انتشار", .pieChart: "مخطط دائري", .donutChart: "مخطط حلقي",
            .ringChart: "مخطط الحلقات", .rangeChart: "مخطط النطاقات",
            .categories: "{count} فئات، من {first} إلى {last}", .oneCategory: "فئة واحدة {name}",
            .points: "{count} نقاط بيانات", .onePoint: "نقطة واحدة", .fromTo: "{name} من {low} إلى {high}",
            .lowHigh: "{name}: بلغت أدنى قيمة {low}، وبلغت أعلى قيمة {high}", .otherSegments: "{count} أجزاء أخرى، مجموعها {percent}%",
            .at: "عند {x}",
            .missing: "{count} مفقودة", .valuesBeyond: "{threshold}: {count} قيم",
            .oneValueBeyond: "{threshold}: قيمة واحدة", .aboveValue: "أعلى من {value}", .belowValue: "أدنى من {value}",
            .outsideRange: "خارج {low}–{high}",
        ])

    /// Chinese (simplified).
    package static let chinese = BuiltInStrings(
        language: "zh", decimalSeparator: ".", localeIdentifier: "zh_CN",
        table: [
            .tip: "提示", .bulletChart: "子弹图", .gaugeChart: "仪表图", .againstTarget: "{name} {value}，目标为 {target}", .aboveTarget: "高于目标",
            .belowTarget: "低于目标", .onTarget: "达到目标", .inRange: "处于{range}范围", .measure: "指标", .target: "目标", .ranges: "范围", .total: "合计",
            .subtotal: "小计", .weekOf: "{date}当周", .warning: "注意", .good: "良好", .digitalSignature: "数字签名",
            .alert: "警告", .noData: "无数据", .continued: "续",
            .pageFooter: "第 {page} 页，共 {pages} 页", .data: "数据", .table: "表格", .chart: "图表", .report: "报告",
            .category: "类别", .segment: "部分", .value: "数值", .share: "占比", .ring: "圆环", .progress: "进度",
            .barChart: "柱状图", .stackedBarChart: "堆积柱状图", .lineChart: "折线图", .scatterChart: "散点图",
            .pieChart: "饼图", .donutChart: "环形图", .ringChart: "圆环进度图", .rangeChart: "范围图",
            .categories: "{count} 个类别，从 {first} 到 {last}", .oneCategory: "1 个类别 {name}",
            .points: "一共有 {count} 个数据点", .onePoint: "1 个点", .fromTo: "{name}，范围是从 {low} 到 {high}",
            .lowHigh: "{name} 的最低值为 {low}，最高值为 {high}",
            .otherSegments: "其他 {count} 个部分，合计 {percent}%", .at: "出现在 {x}",
            .missing: "缺失 {count} 个", .valuesBeyond: "{threshold}：{count} 个值",
            .oneValueBeyond: "{threshold}：1 个值", .aboveValue: "高于{value}", .belowValue: "低于{value}",
            .outsideRange: "超出{low}–{high}",
        ])
}
